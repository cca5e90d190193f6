import Foundation

extension PreferenceValue: CustomStringConvertible {
    /// The value in the old-style property-list text the macOS `defaults read` tool prints:
    ///
    /// ```
    /// {
    ///     name = "Ada Lovelace";
    ///     volume = 7;
    /// }
    /// ```
    public var description: String { rendered(indent: "") }

    private func rendered(indent: String) -> String {
        let inner = indent + "    "
        switch self {
        case .bool(let value): return value ? "1" : "0"
        case .integer(let value): return String(value)
        case .real(let value): return String(value)
        case .string(let value): return Self.quotedIfNeeded(value)
        case .date(let value): return PreferenceDate.text(value)
        case .data(let value):
            let hex = value.map { String(format: "%02x", $0) }.joined()
            return "{length = \(value.count), bytes = 0x\(hex)}"
        case .array(let values):
            if values.isEmpty { return "(\n\(indent))" }
            let lines = values.map { inner + $0.rendered(indent: inner) }
            return "(\n" + lines.joined(separator: ",\n") + "\n\(indent))"
        case .dictionary(let values):
            if values.isEmpty { return "{\n\(indent)}" }
            let lines = values.keys.sorted().map { key in
                let value = values[key]?.rendered(indent: inner) ?? ""
                return "\(inner)\(Self.quotedIfNeeded(key)) = \(value);"
            }
            return "{\n" + lines.joined(separator: "\n") + "\n\(indent)}"
        }
    }

    /// `value` as an old-style property-list string, the way `defaults read` shows one.
    ///
    /// The policy: a plain word (a non-empty run of ASCII letters, digits and `_.$/:-`) is
    /// written as it is; anything else goes in double quotes, where `"` and `\` get a backslash,
    /// line feed and tab become `\n` and `\t`, and every other character (other control
    /// characters, non-ASCII) is written as it is, so the text stays readable.
    ///
    /// This is not ObjectGraph's `StringLiteral` quoting, on purpose: that one always quotes and
    /// writes other control characters as `\u0007`, for predicate format strings and JSON;
    /// old-style property lists leave plain words unquoted and have escapes of their own. (And
    /// Preferences does not depend on ObjectGraph.)
    static func quotedIfNeeded(_ value: String) -> String {
        let plain =
            !value.isEmpty
            && value.unicodeScalars.allSatisfy { scalar in
                (scalar.isASCII && CharacterSet.alphanumerics.contains(scalar))
                    || "_.$/:-".unicodeScalars.contains(scalar)
            }
        if plain { return value }
        var escaped = ""
        for character in value {
            switch character {
            case "\"": escaped += "\\\""
            case "\\": escaped += "\\\\"
            case "\n": escaped += "\\n"
            case "\t": escaped += "\\t"
            default: escaped.append(character)
            }
        }
        return "\"\(escaped)\""
    }
}
