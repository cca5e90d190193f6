import AppContainer
import Foundation
import Preferences

/// `objectgraph defaults read|read-type|write|delete <identifier> [key] [value]`: the macOS
/// `defaults` tool for ObjectGraph preferences.
///
/// The file is `$XDG_CONFIG_HOME/<id>/<id>.plist` (from the command's environment, with the
/// XDG fallbacks), or `<root>/Library/Preferences/<id>.plist` with `--root <folder>`.
///
/// `-array-add` and `-dict-add` change the stored value with ``Preferences/update(forKey:_:)``:
/// the read and the write happen under the writers' lock, so concurrent adds are never lost.
/// `read`, `read-type` and `delete` never change a file; one that does not parse is an error
/// (a `write` moves it aside and makes a fresh one).
///
/// Two options exist for tests and are left out of the help: `--repeat <n>` makes `write`
/// store `<key>-0` … `<key>-<n-1>`, synchronising after each (with `-array-add` or
/// `-dict-add`: makes n updates of `<key>`, round r adding the values, or the keys, suffixed
/// `-r`), a writer for the multi-process tests; and `--exit-without-synchronize` makes `write`
/// leave without synchronising, by calling `exit(0)` while the preferences are alive, to
/// exercise the at-exit save. Never use the latter in-process.
struct DefaultsCommand: Command {
    static let name = "defaults"
    static let abstract = "Read, write and delete preferences (like macOS defaults)"
    static let help = """
        OVERVIEW: Read, write and delete an app's preferences (<id>.plist), like macOS defaults.

        USAGE: objectgraph defaults read <identifier> [<key>]
               objectgraph defaults read-type <identifier> <key>
               objectgraph defaults write <identifier> <key> [<type>] <value>
               objectgraph defaults delete <identifier> [<key>]

        TYPES (for write; a plain value is a string, or a property list if it starts with
        '(', '{' or '<'):
          -string <text>          -int <integer>          -float <number>
          -bool <yes|no|true|false|1|0>                   -data <hex>
          -date <2024-05-01T12:00:00Z | "2024-05-01 12:00:00 +0000" | 2024-05-01>
                                  (years 0001 to 9999, the range a property list keeps)
          -array <value>...       -array-add <value>...   (strings)
          -dict <key> <value>...  -dict-add <key> <value>...   (string values)
          -array-add and -dict-add are atomic: concurrent adds are never lost.

        OPTIONS:
          --root <folder>   Use the iOS layout under <folder>: <folder>/Library/Preferences.
          -h, --help        Show this help.

        The file is $XDG_CONFIG_HOME/<identifier>/<identifier>.plist (default ~/.config).
        Exit status: 0 success, 1 no such domain or key, 2 usage error or unusable file.
        read, read-type and delete never change a file; a file that does not parse is an
        error for them, and write moves it aside (<id>.plist.corrupt-<time>).

        """

    static func run(_ arguments: [String], io: CommandIO) -> Int32 {
        var options = Options()
        var positional: [String] = []
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            switch argument {
            case "--root", "--repeat":
                guard index + 1 < arguments.count else {
                    return usageError("\(argument) needs a value", io: io)
                }
                let value = arguments[index + 1]
                if argument == "--root" {
                    options.root = URL(fileURLWithPath: value)
                } else {
                    guard let count = Int(value), count > 0 else {
                        return usageError("--repeat needs a positive integer", io: io)
                    }
                    options.repeatCount = count
                }
                index += 2
                continue
            case "--exit-without-synchronize":
                options.exitWithoutSynchronize = true
            default:
                positional.append(argument)
            }
            index += 1
        }
        guard positional.count >= 2 else {
            return usageError("expected a verb and an identifier", io: io)
        }
        let verb = positional[0]
        let preferences: Preferences
        do {
            preferences = try open(positional[1], options: options, io: io)
        } catch {
            return usageError("\(error)", io: io)
        }
        let rest = Array(positional.dropFirst(2))
        let status: Int32
        switch verb {
        case "read": status = read(preferences, rest, io: io)
        case "read-type": status = readType(preferences, rest, io: io)
        case "write": status = write(preferences, rest, options: options, io: io)
        case "delete": status = delete(preferences, rest, io: io)
        default:
            return usageError(
                "unknown verb '\(verb)' (expected read, read-type, write or delete)", io: io)
        }
        // A corrupt file met by a write was moved aside: say so.
        if let error = preferences.lastError, case .corruptFile = error {
            io.writeError("warning: \(error)\n")
        }
        return status
    }

    struct Options {
        var root: URL?
        var repeatCount: Int?
        var exitWithoutSynchronize = false
    }

    private static func open(_ identifier: String, options: Options, io: CommandIO) throws
        -> Preferences
    {
        let container: AppContainer
        if let root = options.root {
            container = try AppContainer(identifier: identifier, root: root)
        } else {
            container = try AppContainer(identifier: identifier, environment: io.environment)
        }
        return Preferences(container: container)
    }

    // MARK: Verbs

    private static func read(_ preferences: Preferences, _ rest: [String], io: CommandIO)
        -> Int32
    {
        guard rest.count <= 1 else { return usageError("read takes at most one key", io: io) }
        let stored = storedValues(preferences)
        if let failure = readFailure(preferences, io: io) { return failure }
        guard let stored else { return missingDomain(preferences, io: io) }
        if let key = rest.first {
            guard let value = stored[key] else { return missingKey(preferences, key, io: io) }
            if case .string(let text) = value {
                io.write(text + "\n")
            } else {
                io.write(value.description + "\n")
            }
        } else {
            io.write(PreferenceValue.dictionary(stored).description + "\n")
        }
        return ExitStatus.success
    }

    private static func readType(_ preferences: Preferences, _ rest: [String], io: CommandIO)
        -> Int32
    {
        guard rest.count == 1, let key = rest.first else {
            return usageError("read-type takes one key", io: io)
        }
        let stored = storedValues(preferences)
        if let failure = readFailure(preferences, io: io) { return failure }
        guard let stored else { return missingDomain(preferences, io: io) }
        guard let value = stored[key] else { return missingKey(preferences, key, io: io) }
        let type: String
        switch value {
        case .bool: type = "boolean"
        case .integer: type = "integer"
        case .real: type = "float"
        case .string: type = "string"
        case .data: type = "data"
        case .date: type = "date"
        case .array: type = "array"
        case .dictionary: type = "dictionary"
        }
        io.write("Type is \(type)\n")
        return ExitStatus.success
    }

    private static func write(
        _ preferences: Preferences, _ rest: [String], options: Options, io: CommandIO
    ) -> Int32 {
        guard let key = rest.first else { return usageError("write needs a key", io: io) }
        let arguments = Array(rest.dropFirst())
        let value: PreferenceValue
        do {
            // Checks the arguments; an add reads the stored value again under the lock.
            value = try parseValue(arguments, existing: nil)
        } catch {
            return usageError(error.message, io: io)
        }
        if let flag = arguments.first, flag == "-array-add" || flag == "-dict-add" {
            return add(preferences, key, arguments, options: options, io: io)
        }
        do {
            if let count = options.repeatCount {
                for round in 0..<count {
                    preferences.set(value, forKey: "\(key)-\(round)")
                    try preferences.synchronize()
                }
                return ExitStatus.success
            }
            preferences.set(value, forKey: key)
            if options.exitWithoutSynchronize {
                // Test-only: leave while `preferences` is alive; the at-exit save writes it.
                withExtendedLifetime(preferences) { exit(0) }
            }
            try preferences.synchronize()
        } catch {
            io.writeError("error: \(error)\n")
            return ExitStatus.usage
        }
        return ExitStatus.success
    }

    /// `-array-add` or `-dict-add`: each round one atomic update of `key` (see `--repeat`).
    private static func add(
        _ preferences: Preferences, _ key: String, _ arguments: [String], options: Options,
        io: CommandIO
    ) -> Int32 {
        let flag = arguments[0]
        let values = arguments.dropFirst()
        do {
            for round in 0..<(options.repeatCount ?? 1) {
                // With --repeat, each round's elements (or keys) get the round as a suffix.
                let suffix = options.repeatCount == nil ? "" : "-\(round)"
                var roundArguments = [flag]
                for (offset, value) in values.enumerated() {
                    let suffixed = flag == "-array-add" || offset % 2 == 0
                    roundArguments.append(suffixed ? value + suffix : value)
                }
                try preferences.update(forKey: key) { existing in
                    try parseValue(roundArguments, existing: existing)
                }
            }
        } catch let error as ValueError {
            return usageError(error.message, io: io)
        } catch {
            io.writeError("error: \(error)\n")
            return ExitStatus.usage
        }
        return ExitStatus.success
    }

    private static func delete(_ preferences: Preferences, _ rest: [String], io: CommandIO)
        -> Int32
    {
        guard rest.count <= 1 else { return usageError("delete takes at most one key", io: io) }
        let stored = storedValues(preferences)
        if let failure = readFailure(preferences, io: io) { return failure }
        guard stored != nil else { return missingDomain(preferences, io: io) }
        do {
            if let key = rest.first {
                // Checked and removed under the writers' lock, not from a read before it.
                try preferences.update(forKey: key) { existing in
                    guard existing != nil else { throw MissingKey() }
                    return nil
                }
            } else {
                preferences.removeAll()
                try preferences.synchronize()
            }
        } catch is MissingKey {
            return missingKey(preferences, rest[0], io: io)
        } catch {
            io.writeError("error: \(error)\n")
            return ExitStatus.usage
        }
        return ExitStatus.success
    }

    /// Thrown by `delete` when the key it removes is not stored.
    private struct MissingKey: Error {}

    // MARK: Helpers

    /// The stored values (no defaults are registered here), or `nil` when the domain has none.
    private static func storedValues(_ preferences: Preferences) -> [String: PreferenceValue]? {
        let values = preferences.dictionaryRepresentation()
        return values.isEmpty ? nil : values
    }

    /// An error if reading the file failed (it does not parse, or cannot be read): printed,
    /// with exit status 2. The file is left as it is.
    private static func readFailure(_ preferences: Preferences, io: CommandIO) -> Int32? {
        guard let error = preferences.lastError else { return nil }
        io.writeError("error: \(error)\n")
        return ExitStatus.usage
    }

    private static func missingDomain(_ preferences: Preferences, io: CommandIO) -> Int32 {
        io.writeError(
            "Domain \(preferences.identifier) does not exist (\(preferences.fileURL.path))\n")
        return ExitStatus.finding
    }

    private static func missingKey(_ preferences: Preferences, _ key: String, io: CommandIO)
        -> Int32
    {
        io.writeError(
            "The domain/default pair of (\(preferences.identifier), \(key)) does not exist\n")
        return ExitStatus.finding
    }

    struct ValueError: Error {
        var message: String
    }

    /// The value `write` stores, from the arguments after the key.
    static func parseValue(_ arguments: [String], existing: PreferenceValue?) throws(ValueError)
        -> PreferenceValue
    {
        guard let first = arguments.first else { throw ValueError(message: "write needs a value") }
        let values = Array(arguments.dropFirst())
        func single(_ flag: String) throws(ValueError) -> String {
            guard values.count == 1, let value = values.first else {
                throw ValueError(message: "\(flag) takes exactly one value")
            }
            return value
        }
        switch first {
        case "-string":
            return .string(try single(first))
        case "-int", "-integer":
            let text = try single(first)
            guard let value = Int(text) else {
                throw ValueError(message: "'\(text)' is not an integer")
            }
            return .integer(value)
        case "-float":
            let text = try single(first)
            guard let value = Double(text) else {
                throw ValueError(message: "'\(text)' is not a number")
            }
            return .real(value)
        case "-bool", "-boolean":
            let text = try single(first)
            switch text.lowercased() {
            case "yes", "true", "1": return .bool(true)
            case "no", "false", "0": return .bool(false)
            default: throw ValueError(message: "'\(text)' is not a boolean (yes, no, true, false)")
            }
        case "-date":
            return .date(try DefaultsDateParser.parse(try single(first)))
        case "-data":
            let text = try single(first)
            guard let data = parseHex(text) else {
                throw ValueError(message: "'\(text)' is not hex")
            }
            return .data(data)
        case "-array":
            return .array(values.map(PreferenceValue.string))
        case "-array-add":
            guard case .array(let old)? = existing ?? .array([]) else {
                throw ValueError(message: "the existing value is not an array")
            }
            return .array(old + values.map(PreferenceValue.string))
        case "-dict", "-dict-add":
            guard values.count % 2 == 0 else {
                throw ValueError(message: "\(first) takes key and value pairs")
            }
            var dictionary: [String: PreferenceValue] = [:]
            if first == "-dict-add" {
                guard case .dictionary(let old)? = existing ?? .dictionary([:]) else {
                    throw ValueError(message: "the existing value is not a dictionary")
                }
                dictionary = old
            }
            for pair in stride(from: 0, to: values.count, by: 2) {
                dictionary[values[pair]] = .string(values[pair + 1])
            }
            return .dictionary(dictionary)
        default:
            guard values.isEmpty else {
                throw ValueError(message: "unknown type '\(first)' or too many values")
            }
            if let literal = first.first, "({<".contains(literal) {
                return try parsePropertyList(first)
            }
            return .string(first)
        }
    }

    private static func parsePropertyList(_ text: String) throws(ValueError) -> PreferenceValue {
        let object: Any
        do {
            object = try PropertyListSerialization.propertyList(from: Data(text.utf8), format: nil)
        } catch {
            throw ValueError(message: "'\(text)' is not a property list")
        }
        guard let value = PreferenceValue(propertyListObject: object) else {
            throw ValueError(message: "'\(text)' holds values a preference cannot")
        }
        return value
    }

    static func parseHex(_ text: String) -> Data? {
        var digits = text.lowercased().filter { !$0.isWhitespace && $0 != "<" && $0 != ">" }
        if digits.hasPrefix("0x") { digits.removeFirst(2) }
        guard digits.count % 2 == 0 else { return nil }
        var data = Data()
        var iterator = digits.makeIterator()
        while let high = iterator.next(), let low = iterator.next() {
            guard let byte = UInt8(String([high, low]), radix: 16) else { return nil }
            data.append(byte)
        }
        return data
    }
}
