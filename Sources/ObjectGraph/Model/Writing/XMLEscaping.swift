/// The one XML 1.0 text escaper: model files (``XMLOutputElement``), `.xccurrentversion`
/// (``ModelFileTarget``), XML stores and their metadata all write text through it.
///
/// The policy:
/// - Everywhere: `&` becomes `&amp;`, `<` becomes `&lt;` and carriage return becomes `&#13;`
///   (a parser turns a raw one, or a CR LF pair, into a line feed).
/// - Element text (``Context/text``): `>` becomes `&gt;`, so `]]>` never appears; `"`, `'`,
///   tab and line feed stay raw.
/// - Double-quoted attribute values (``Context/attributeValue``): `"` becomes `&quot;`, tab and
///   line feed become `&#9;` and `&#10;` (a parser turns raw ones into spaces); `>` and `'`
///   stay raw: both are legal there, and Xcode writes `predicateString="count > 5"`.
/// - Every other character is written as it is (as UTF-8 once the text is encoded), non-ASCII
///   included.
/// - Characters XML 1.0 cannot hold at all (C0 controls other than tab, line feed and carriage
///   return; U+FFFE; U+FFFF) have no escape: `&#1;` is not well-formed either. ``append(_:to:as:)``
///   refuses them with ``UnrepresentableCharacter``, naming the first one, so nothing is lost
///   silently. A writer that cannot fail and accepts the loss calls
///   ``appendReplacingUnrepresentable(_:to:as:)`` instead, which writes U+FFFD for each; only
///   the model writer does, so Xcode can open the file (model text is not user data).
enum XMLEscaping {
    /// Where escaped text goes.
    enum Context {
        /// Element content, between tags.
        case text
        /// A double-quoted attribute value.
        case attributeValue
    }

    /// A character XML 1.0 cannot represent, found in text to escape.
    struct UnrepresentableCharacter: Error, CustomStringConvertible {
        /// The character.
        let scalar: Unicode.Scalar

        /// `U+0007`: the character's code point, at least four uppercase hex digits.
        var codePoint: String {
            let hex = String(scalar.value, radix: 16, uppercase: true)
            return "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
        }

        /// `the character U+0007, which an XML 1.0 file cannot hold`.
        var description: String {
            "the character \(codePoint), which an XML 1.0 file cannot hold"
        }
    }

    /// Appends `text`, escaped for `context`, to `output`.
    ///
    /// - Throws: ``UnrepresentableCharacter`` for the first character XML 1.0 cannot hold;
    ///   `output` may then hold part of `text`.
    static func append(_ text: String, to output: inout String, as context: Context)
        throws(UnrepresentableCharacter)
    {
        try write(text, to: &output, as: context) {
            (scalar) throws(UnrepresentableCharacter) -> String in
            throw UnrepresentableCharacter(scalar: scalar)
        }
    }

    /// `text` escaped for `context`.
    ///
    /// - Throws: ``UnrepresentableCharacter`` for the first character XML 1.0 cannot hold.
    static func escaped(_ text: String, as context: Context) throws(UnrepresentableCharacter)
        -> String
    {
        var output = ""
        try append(text, to: &output, as: context)
        return output
    }

    /// Appends `text`, escaped for `context`, to `output`, writing U+FFFD for each character
    /// XML 1.0 cannot hold. For writers that must not fail and may lose those characters.
    static func appendReplacingUnrepresentable(
        _ text: String, to output: inout String, as context: Context
    ) {
        write(text, to: &output, as: context) { _ in "\u{FFFD}" }
    }

    /// Whether XML 1.0 can hold `scalar` (its `Char` production).
    static func isRepresentable(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x9, 0xA, 0xD: return true
        case 0x20...0xD7FF, 0xE000...0xFFFD, 0x10000...0x10FFFF: return true
        default: return false
        }
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

    // MARK: - The escaping itself

    /// The policy, with `unrepresentable` giving the text for a character XML cannot hold (or
    /// throwing).
    private static func write<Failure: Error>(
        _ text: String, to output: inout String, as context: Context,
        unrepresentable: (Unicode.Scalar) throws(Failure) -> String
    ) throws(Failure) {
        guard needsWork(text) else {
            output += text
            return
        }
        let inAttribute = context == .attributeValue
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": output += "&amp;"
            case "<": output += "&lt;"
            case "\r": output += "&#13;"
            case ">" where !inAttribute: output += "&gt;"
            case "\"" where inAttribute: output += "&quot;"
            case "\t" where inAttribute: output += "&#9;"
            case "\n" where inAttribute: output += "&#10;"
            default:
                if isRepresentable(scalar) {
                    output.unicodeScalars.append(scalar)
                } else {
                    output += try unrepresentable(scalar)
                }
            }
        }
    }

    /// Whether `text` holds any byte that may need escaping or checking, in either context.
    private static func needsWork(_ text: String) -> Bool {
        for byte in text.utf8 {
            switch byte {
            case 0x26, 0x3C, 0x3E, 0x22: return true  // & < > "
            case 0..<0x20: return true
            case 0xEF: return true  // U+FFFE and U+FFFF start with EF BF
            default: continue
            }
        }
        return false
    }

    private static func isNameStart(_ scalar: Unicode.Scalar) -> Bool {
        ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || scalar == "_"
            || scalar == ":"
    }
}
