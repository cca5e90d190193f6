/// The package's one way to quote text as a double-quoted literal with backslash escapes: the
/// string constants of predicate format strings (``Predicate/description``), and in the
/// command-line tool the strings of its JSON output and of its keychain listings.
///
/// The policy:
/// - `"` becomes `\"` and `\` becomes `\\`;
/// - line feed, tab and carriage return become `\n`, `\t` and `\r`;
/// - every other control character (U+0000–U+001F) and DEL (U+007F) becomes `\u` and four
///   lowercase hexadecimal digits (`\u0007`);
/// - every other character, non-ASCII included, is written as it is (`'` too).
///
/// Those are escapes both the predicate parser and JSON read, so the literal reads back as the
/// same text in either. (Preferences' `defaults read` text is another format, with its own
/// quoting: see `PreferenceValue.description`.)
package enum StringLiteral {
    /// `text` in double quotes, escaped by the policy above: `say "hi"` and a line feed become
    /// `"say \"hi\"\n"`.
    package static func quoted(_ text: String) -> String {
        var output = ""
        output.reserveCapacity(text.utf8.count + 2)
        appendQuoted(text, to: &output)
        return output
    }

    /// Appends `text` in double quotes, escaped by the policy above, to `output`.
    package static func appendQuoted(_ text: String, to output: inout String) {
        output += "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": output += "\\\""
            case "\\": output += "\\\\"
            case "\n": output += "\\n"
            case "\t": output += "\\t"
            case "\r": output += "\\r"
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F {
                    let hex = String(scalar.value, radix: 16)
                    output += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    output.unicodeScalars.append(scalar)
                }
            }
        }
        output += "\""
    }
}
