/// Escapes text for an XML 1.0 document: `&`, `<`, `>` always; in attribute values also `"`,
/// tab, line feed and carriage return (as character references, so they survive attribute
/// normalization); carriage returns in text too. Characters XML 1.0 cannot hold at all (C0
/// controls other than tab, line feed and carriage return; U+FFFE, U+FFFF) are refused.
enum XMLTextEscaping {
    /// A character XML 1.0 cannot represent.
    struct UnrepresentableCharacter: Error {
        let scalar: Unicode.Scalar
    }

    /// Appends `text`, escaped for element content (or an attribute value), to `output`.
    static func append(_ text: String, to output: inout String, inAttribute: Bool = false)
        throws(UnrepresentableCharacter)
    {
        if !needsWork(text) {
            output += text
            return
        }
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": output += "&amp;"
            case "<": output += "&lt;"
            case ">": output += "&gt;"
            case "\"" where inAttribute: output += "&quot;"
            case "\n" where inAttribute: output += "&#10;"
            case "\t" where inAttribute: output += "&#9;"
            case "\r": output += "&#13;"
            case "\n", "\t", "\"": output.unicodeScalars.append(scalar)
            default:
                if scalar.value < 0x20 || scalar.value == 0xFFFE || scalar.value == 0xFFFF {
                    throw UnrepresentableCharacter(scalar: scalar)
                }
                output.unicodeScalars.append(scalar)
            }
        }
    }

    /// Whether `text` holds any byte that needs escaping or checking.
    private static func needsWork(_ text: String) -> Bool {
        for byte in text.utf8 {
            switch byte {
            case 0x26, 0x3C, 0x3E, 0x22: return true
            case 0..<0x20: return true
            case 0xEF: return true  // U+FFFE and U+FFFF start with EF BF
            default: continue
            }
        }
        return false
    }
}
