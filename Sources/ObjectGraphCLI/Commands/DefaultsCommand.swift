import AppContainer
import Foundation
import Preferences

/// `objectgraph defaults read|read-type|write|delete <identifier> [key] [value]`: the macOS
/// `defaults` tool for ObjectGraph preferences.
///
/// The file is `$XDG_CONFIG_HOME/<id>/<id>.plist` (from the command's environment, with the
/// XDG fallbacks), or `<root>/Library/Preferences/<id>.plist` with `--root <folder>`.
///
/// Two options exist for tests and are left out of the help: `--repeat <n>` makes `write`
/// store `<key>-0` … `<key>-<n-1>`, synchronising after each (a writer for the two-process
/// test), and `--exit-without-synchronize` makes `write` leave without synchronising, by
/// calling `exit(0)` while the preferences are alive, to exercise the at-exit save. Never use
/// the latter in-process.
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
          -date <2024-05-01T12:00:00Z | "2024-05-01 12:00:00 +0000">
          -array <value>...       -array-add <value>...   (strings)
          -dict <key> <value>...  -dict-add <key> <value>...   (string values)

        OPTIONS:
          --root <folder>   Use the iOS layout under <folder>: <folder>/Library/Preferences.
          -h, --help        Show this help.

        The file is $XDG_CONFIG_HOME/<identifier>/<identifier>.plist (default ~/.config).
        Exit status: 0 success, 1 no such domain or key, 2 usage error or unusable file.

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
        // A corrupt file met on the way was moved aside: say so.
        if let error = preferences.lastError { io.writeError("warning: \(error)\n") }
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
        guard let stored = storedValues(preferences) else {
            return missingDomain(preferences, io: io)
        }
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
        let value: PreferenceValue
        do {
            value = try parseValue(
                Array(rest.dropFirst()), existing: preferences.object(forKey: key))
        } catch {
            return usageError(error.message, io: io)
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

    private static func delete(_ preferences: Preferences, _ rest: [String], io: CommandIO)
        -> Int32
    {
        guard rest.count <= 1 else { return usageError("delete takes at most one key", io: io) }
        guard let stored = storedValues(preferences) else {
            return missingDomain(preferences, io: io)
        }
        if let key = rest.first {
            guard stored[key] != nil else { return missingKey(preferences, key, io: io) }
            preferences.removeObject(forKey: key)
        } else {
            preferences.removeAll()
        }
        do {
            try preferences.synchronize()
        } catch {
            io.writeError("error: \(error)\n")
            return ExitStatus.usage
        }
        return ExitStatus.success
    }

    // MARK: Helpers

    /// The stored values (no defaults are registered here), or `nil` when the domain has none.
    private static func storedValues(_ preferences: Preferences) -> [String: PreferenceValue]? {
        let values = preferences.dictionaryRepresentation()
        return values.isEmpty ? nil : values
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
            let text = try single(first)
            guard let date = parseDate(text) else {
                throw ValueError(message: "'\(text)' is not a date (2024-05-01T12:00:00Z)")
            }
            return .date(date)
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

    static func parseDate(_ text: String) -> Date? {
        let iso = ISO8601DateFormatter()
        if let date = iso.date(from: text) { return date }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        for format in ["yyyy-MM-dd HH:mm:ss Z", "yyyy-MM-dd HH:mm:ss", "yyyy-MM-dd"] {
            formatter.dateFormat = format
            if let date = formatter.date(from: text) { return date }
        }
        return nil
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
