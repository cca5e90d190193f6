import Foundation
import Keychain
import enum ObjectGraph.StringLiteral

/// `objectgraph keychain add-generic-password|find-generic-password|delete-generic-password|
/// dump|create-key-file`: the user's keychain, after the macOS `security` tool and its flags.
///
/// The keychain is `$XDG_DATA_HOME/objectgraph/keychain/keychain.sqlite` (from the command's
/// environment, default `~/.local/share`). The tool acts for the user
/// (`KeychainApplication.owner()`): it sees every access group; new items go to the group
/// `objectgraph` unless `-g` names one. The passphrase comes from
/// `OBJECTGRAPH_KEYCHAIN_PASSPHRASE`, else from a prompt without echo on the terminal;
/// without either, the key file (if any) opens after-first-unlock items, and anything else
/// exits 2 with a hint.
///
/// Two settings exist for tests and are left out of the help: the variable
/// `OBJECTGRAPH_KEYCHAIN_SCRYPT_LOG2N` sets the scrypt cost when the command creates the
/// keychain, and `--repeat <n>` makes `add-generic-password` add accounts `<account>-0` …
/// `<account>-<n-1>`, one transaction each (a writer for the two-process test).
struct KeychainCommand: Command {
    static let name = "keychain"
    static let abstract = "Add, find and delete keychain passwords (like macOS security)"
    static let help = """
        OVERVIEW: Add, find and delete passwords in the user's keychain, like macOS security.

        USAGE: objectgraph keychain add-generic-password -s <service> -a <account>
                   [-l <label>] [-j <comment>] [-g <group>] [-U] [--after-first-unlock]
                   -w [<password>]
               objectgraph keychain find-generic-password [-s <service>] [-a <account>]
                   [-g <group>] [-w]
               objectgraph keychain delete-generic-password [-s <service>] [-a <account>]
                   [-g <group>]
               objectgraph keychain dump
               objectgraph keychain create-key-file

        OPTIONS:
          -s <service>          The service.
          -a <account>          The account.
          -w [<password>]       (add) The password; -w last with no password asks for it
                                (twice, without echo, on a terminal; else the first line
                                of standard input), which keeps it out of the process list
                                and the shell history. (find) Print only the password.
          -l <label>            (add) A label.
          -j <comment>          (add) A comment.
          -g <group>            The access group (default for add: objectgraph).
          -U                    (add) Update the item if it already exists.
          --after-first-unlock  (add) Readable with the key file alone, for unattended programs
                                (default: only when unlocked by the passphrase).
          -h, --help            Show this help.

        dump lists every item's attributes, never a password. create-key-file writes a key
        file (mode 0600) next to the keychain that unlocks after-first-unlock items.

        The keychain is $XDG_DATA_HOME/objectgraph/keychain/keychain.sqlite (default
        ~/.local/share); add creates it with the passphrase when it does not exist.
        The passphrase is read from OBJECTGRAPH_KEYCHAIN_PASSPHRASE, else prompted for.
        Exit status: 0 success, 1 item not found or already exists, 2 usage error, wrong
        passphrase, locked or unreadable keychain.

        """

    /// The group new items go to.
    static let defaultGroup = "objectgraph"

    struct Options {
        var service: String?
        var account: String?
        var password: String?
        /// `-w` came last, without a password: ask for it.
        var asksForPassword = false
        var label: String?
        var comment: String?
        var group: String?
        var printPassword = false
        var update = false
        var afterFirstUnlock = false
        var repeatCount: Int?
    }

    static func run(_ arguments: [String], io: CommandIO) -> Int32 {
        guard let verb = arguments.first else {
            return usageError("expected a verb", io: io)
        }
        let options: Options
        switch parse(Array(arguments.dropFirst()), verb: verb) {
        case .success(let parsed): options = parsed
        case .failure(let message): return usageError(message.text, io: io)
        }
        let location: KeychainLocation
        do {
            location = try KeychainLocation.standard(environment: io.environment)
        } catch {
            return usageError("\(error)", io: io)
        }
        let store = KeychainStore(location: location, application: .owner())
        do {
            switch verb {
            case "add-generic-password": return try add(options, store: store, io: io)
            case "find-generic-password": return try find(options, store: store, io: io)
            case "delete-generic-password": return try delete(options, store: store, io: io)
            case "dump": return try dump(store: store, io: io)
            case "create-key-file": return try createKeyFile(store: store, io: io)
            default: return usageError("unknown verb '\(verb)'", io: io)
            }
        } catch let error as KeychainError {
            return report(error, location: location, io: io)
        } catch {
            io.writeError("error: \(error)\n")
            return ExitStatus.usage
        }
    }

    /// A parse failure's message.
    struct ParseError: Error {
        let text: String
    }

    private static func parse(_ arguments: [String], verb: String) -> Result<Options, ParseError> {
        var options = Options()
        var index = 0
        let isAdd = verb == "add-generic-password"
        while index < arguments.count {
            let argument = arguments[index]
            // `-w` last, with nothing after it, asks for the password (as `security` does).
            let asksForPassword = argument == "-w" && isAdd && index == arguments.count - 1
            let takesValue =
                ["-s", "-a", "-l", "-j", "-g", "--repeat"].contains(argument)
                || (argument == "-w" && isAdd && !asksForPassword)
            var value = ""
            if takesValue {
                guard index + 1 < arguments.count else {
                    return .failure(ParseError(text: "\(argument) needs a value"))
                }
                value = arguments[index + 1]
                index += 1
            }
            switch argument {
            case "-s": options.service = value
            case "-a": options.account = value
            case "-l": options.label = value
            case "-j": options.comment = value
            case "-g": options.group = value
            case "-w":
                if asksForPassword {
                    options.asksForPassword = true
                } else if isAdd {
                    options.password = value
                } else {
                    options.printPassword = true
                }
            case "-U": options.update = true
            case "--after-first-unlock": options.afterFirstUnlock = true
            case "--repeat":
                guard let count = Int(value), count > 0 else {
                    return .failure(ParseError(text: "--repeat needs a positive integer"))
                }
                options.repeatCount = count
            default:
                return .failure(ParseError(text: "unknown option '\(argument)'"))
            }
            index += 1
        }
        return .success(options)
    }

    // MARK: - Verbs

    private static func add(_ options: Options, store: KeychainStore, io: CommandIO) throws
        -> Int32
    {
        guard let service = options.service, let account = options.account else {
            return usageError("add-generic-password needs -s <service> and -a <account>", io: io)
        }
        let password: String
        if let given = options.password {
            password = given
        } else if options.asksForPassword {
            switch askForPassword(io: io) {
            case .success(let entered): password = entered
            case .failure(let message): return usageError(message.text, io: io)
            }
        } else {
            return usageError("add-generic-password needs -w [<password>]", io: io)
        }
        if let status = try unlock(store, creating: true, io: io) { return status }
        let accounts =
            options.repeatCount.map { count in (0..<count).map { "\(account)-\($0)" } }
            ?? [account]
        for account in accounts {
            var item = KeychainItem.genericPassword(
                service: service, account: account, data: Data(password.utf8),
                accessibility: options.afterFirstUnlock ? .afterFirstUnlock : .whenUnlocked)
            item.label = options.label
            item.comment = options.comment
            item.accessGroup = options.group ?? defaultGroup
            do {
                try store.add(item)
            } catch let error as KeychainError
                where error.status == .duplicateItem
                && options.update
            {
                var query = KeychainQuery.genericPassword(service: service, account: account)
                query.accessGroup = item.accessGroup
                try store.update(
                    matching: query,
                    with: KeychainUpdate(
                        data: item.data, label: options.label, comment: options.comment,
                        accessibility: item.accessibility))
            }
        }
        return ExitStatus.success
    }

    private static func find(_ options: Options, store: KeychainStore, io: CommandIO) throws
        -> Int32
    {
        if let status = try unlock(store, creating: false, io: io) { return status }
        var query = query(options)
        query.returning = options.printPassword ? .data : .attributes
        guard let match = try store.copyMatching(query).first else {
            return ExitStatus.finding
        }
        if options.printPassword, let data = match.data {
            if let text = String(data: data, encoding: .utf8) {
                io.write(text + "\n")
            } else {
                io.write(data.map { String(format: "%02x", $0) }.joined() + "\n")
            }
        } else if let attributes = match.attributes {
            io.write(describe(attributes, location: try store.location))
        }
        return ExitStatus.success
    }

    private static func delete(_ options: Options, store: KeychainStore, io: CommandIO) throws
        -> Int32
    {
        guard options.service != nil || options.account != nil else {
            return usageError("delete-generic-password needs -s or -a", io: io)
        }
        if let status = try unlock(store, creating: false, io: io) { return status }
        let query = query(options)
        var described = query
        described.returning = .attributes
        let first = try store.copyMatching(described).first?.attributes
        try store.delete(matching: query)
        if let first {
            io.write(describe(first, location: try store.location))
        }
        io.write("password has been deleted.\n")
        return ExitStatus.success
    }

    private static func dump(store: KeychainStore, io: CommandIO) throws -> Int32 {
        if let status = try unlock(store, creating: false, io: io) { return status }
        let location = try store.location
        for itemClass in KeychainItemClass.allCases {
            var query = KeychainQuery(itemClass: itemClass)
            query.matchLimit = .all
            query.returning = .attributes
            let matches: [KeychainMatch]
            do {
                matches = try store.copyMatching(query)
            } catch let error as KeychainError where error.status == .itemNotFound {
                continue
            }
            for attributes in matches.compactMap(\.attributes) {
                io.write(describe(attributes, location: location))
            }
        }
        return ExitStatus.success
    }

    private static func createKeyFile(store: KeychainStore, io: CommandIO) throws -> Int32 {
        guard passphrase(io: io) != nil else {
            return needsPassphrase(io: io)
        }
        if let status = try unlock(store, creating: false, io: io) { return status }
        try store.createKeyFile()
        io.write("key file: \"\(try store.location.keyFileURL.path)\"\n")
        return ExitStatus.success
    }

    // MARK: - Helpers

    private static func query(_ options: Options) -> KeychainQuery {
        var query = KeychainQuery.genericPassword(
            service: options.service, account: options.account)
        query.accessGroup = options.group
        return query
    }

    /// The attributes in the shape of `security find-generic-password`.
    static func describe(_ attributes: KeychainAttributes, location: KeychainLocation) -> String {
        func quoted(_ text: String?) -> String {
            text.map(StringLiteral.quoted) ?? "<NULL>"
        }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyyMMddHHmmss'Z'"
        var lines = [
            "keychain: \(quoted(location.databaseURL.path))",
            "class: \(quoted(attributes.itemClass.rawValue))",
            "attributes:",
            "    \"acct\"<blob>=\(quoted(attributes.account))",
            "    \"agrp\"<blob>=\(quoted(attributes.accessGroup))",
            "    \"cdat\"<timedate>=\(quoted(formatter.string(from: attributes.creationDate)))",
            "    \"icmt\"<blob>=\(quoted(attributes.comment))",
            "    \"labl\"<blob>=\(quoted(attributes.label))",
            "    \"mdat\"<timedate>=\(quoted(formatter.string(from: attributes.modificationDate)))",
            "    \"pdmn\"<blob>=\(quoted(attributes.accessibility.rawValue))",
        ]
        switch attributes.itemClass {
        case .genericPassword:
            lines.append("    \"svce\"<blob>=\(quoted(attributes.service))")
        case .internetPassword:
            lines += [
                "    \"path\"<blob>=\(quoted(attributes.path))",
                "    \"port\"<uint32>=\(attributes.port)",
                "    \"ptcl\"<blob>=\(quoted(attributes.protocol))",
                "    \"srvr\"<blob>=\(quoted(attributes.server))",
            ]
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// Prints a keychain error and returns its exit status.
    private static func report(_ error: KeychainError, location: KeychainLocation, io: CommandIO)
        -> Int32
    {
        switch error.status {
        case .itemNotFound, .duplicateItem:
            io.writeError("objectgraph keychain: \(error)\n")
            return ExitStatus.finding
        case .noSuchKeychain:
            io.writeError(
                "objectgraph keychain: \(error)\n"
                    + "hint: add an item to create it (add-generic-password)\n")
            return ExitStatus.finding
        case .interactionNotAllowed:
            io.writeError(
                "error: \(error)\nhint: set OBJECTGRAPH_KEYCHAIN_PASSPHRASE or run on a terminal\n"
            )
            return ExitStatus.usage
        default:
            io.writeError("error: \(error)\n")
            return ExitStatus.usage
        }
    }
}
