/// Escaping for the two kinds of text a Graphviz DOT file holds: quoted strings and HTML-like
/// labels.
///
/// ```swift
/// DOTText.quoted(#"a "b" \c"#)  // "a \"b\" \\c" in quotes
/// DOTText.html("A<B & C>")      // A&lt;B &amp; C&gt;
/// ```
public enum DOTText {
    /// `text` as a DOT quoted string, with its quotes: `"` and `\` are escaped (a backslash
    /// would otherwise start an escape such as `\N` in a label) and line breaks become `\n`.
    public static func quoted(_ text: String) -> String {
        var result = "\""
        for character in text {
            switch character {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n", "\r\n", "\r": result += "\\n"
            default: result.append(character)
            }
        }
        return result + "\""
    }

    /// `text` for the inside of an HTML-like label: `&`, `<`, `>`, `"` and `'` become entities
    /// and control characters (line breaks included) become spaces, so a name can neither
    /// close the label nor add markup.
    public static func html(_ text: String) -> String {
        var result = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "'": result += "&#39;"
            default:
                if scalar.properties.generalCategory == .control {
                    result += " "
                } else {
                    result.unicodeScalars.append(scalar)
                }
            }
        }
        return result
    }
}
