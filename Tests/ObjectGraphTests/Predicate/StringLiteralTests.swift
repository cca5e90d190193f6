import Foundation
import ObjectGraph
import Testing

// Foundation also declares `Expression`.
private typealias Expression = ObjectGraph.Expression

/// The policy of ``StringLiteral``, the one double-quoted-literal quoter (predicate format
/// strings, and the command-line tool's JSON and keychain listings).
@Suite struct StringLiteralTests {
    /// Texts that exercise every rule of the policy.
    static let samples = [
        "", "plain", "say \"hi\"", #"back\slash \n not a newline"#, "tab\tline\ncarriage\r",
        "nul \u{0} bell \u{7} escape \u{1B} unit \u{1F} del \u{7F}", "'single' quotes",
        "café ☕︎ 🎓 \u{85} \u{2028}", "%@ $var %K", "\r\n",
    ]

    @Test("quotes and backslashes get a backslash; newline, tab and return are \\n \\t \\r")
    func escapes() {
        #expect(StringLiteral.quoted("say \"hi\"") == #""say \"hi\"""#)
        #expect(StringLiteral.quoted(#"a\b"#) == #""a\\b""#)
        #expect(StringLiteral.quoted("a\nb\tc\rd") == #""a\nb\tc\rd""#)
        #expect(StringLiteral.quoted("") == #""""#)
    }

    @Test("other control characters and DEL are \\u with four lowercase hex digits")
    func controlCharacters() {
        #expect(
            StringLiteral.quoted("\u{0}\u{7}\u{1B}\u{1F}\u{7F}")
                == #""\u0000\u0007\u001b\u001f\u007f""#)
    }

    @Test("everything else is written as it is, non-ASCII and single quotes included")
    func verbatim() {
        let text = "'x' café ☕︎ 🎓 \u{85}\u{A0}\u{2028}"
        #expect(StringLiteral.quoted(text) == "\"" + text + "\"")
    }

    @Test("appending gives the same literal")
    func appending() {
        var output = "x == "
        StringLiteral.appendQuoted("a\"b", to: &output)
        #expect(output == #"x == "a\"b""#)
    }

    @Test("the predicate parser reads every literal back as the same text", arguments: samples)
    func predicateRoundTrip(text: String) throws {
        let expression = try Expression(format: StringLiteral.quoted(text))
        #expect(expression == .constant(.string(text)))
        #expect(expression.description == StringLiteral.quoted(text))
    }

    @Test("JSON reads every literal back as the same text", arguments: samples)
    func jsonRoundTrip(text: String) throws {
        let json = Data(("[" + StringLiteral.quoted(text) + "]").utf8)
        let decoded = try JSONSerialization.jsonObject(with: json) as? [String]
        #expect(decoded == [text])
    }
}
