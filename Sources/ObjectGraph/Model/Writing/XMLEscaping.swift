/// Text rules for writing XML the way Xcode writes model files.
enum XMLEscaping {
    /// `value` escaped for a double-quoted attribute value.
    ///
    /// `&`, `<` and `"` become `&amp;`, `&lt;` and `&quot;`. A `>` stays raw, as Xcode writes it
    /// (`predicateString="count > 5"`); it is legal there. Tab, newline and carriage return
    /// become `&#9;`, `&#10;` and `&#13;`, because a parser turns raw ones into spaces. Characters
    /// XML 1.0 cannot hold at all (other control characters, U+FFFE, U+FFFF) become U+FFFD.
    static func attributeValue(_ value: String) -> String {
        guard value.unicodeScalars.contains(where: needsEscaping) else { return value }
        var result = ""
        result.reserveCapacity(value.utf8.count + 16)
        for scalar in value.unicodeScalars {
            switch scalar {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case "\"": result += "&quot;"
            case "\t": result += "&#9;"
            case "\n": result += "&#10;"
            case "\r": result += "&#13;"
            default:
                if isAllowedInXML(scalar) {
                    result.unicodeScalars.append(scalar)
                } else {
                    result += "\u{FFFD}"
                }
            }
        }
        return result
    }

    /// Whether `name` can be written as an XML attribute name: an ASCII letter, `_` or `:`,
    /// then letters, digits, `-`, `.`, `_` or `:`. (Non-ASCII name characters are refused too;
    /// Xcode never writes them.)
    static func isValidName(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, isNameStart(first) else { return false }
        return name.unicodeScalars.dropFirst().allSatisfy { scalar in
            isNameStart(scalar) || ("0"..."9").contains(scalar) || scalar == "-" || scalar == "."
        }
    }

    private static func isNameStart(_ scalar: Unicode.Scalar) -> Bool {
        ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || scalar == "_"
            || scalar == ":"
    }

    private static func needsEscaping(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar {
        case "&", "<", "\"", "\t", "\n", "\r": return true
        default: return !isAllowedInXML(scalar)
        }
    }

    /// XML 1.0's `Char` production.
    private static func isAllowedInXML(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x9, 0xA, 0xD: return true
        case 0x20...0xD7FF, 0xE000...0xFFFD, 0x10000...0x10FFFF: return true
        default: return false
        }
    }
}
