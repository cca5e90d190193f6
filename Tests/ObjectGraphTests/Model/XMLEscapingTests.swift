import Foundation
import Testing

@testable import ObjectGraph

/// The policy of ``XMLEscaping``, the one XML escaper the model writer, `.xccurrentversion` and
/// the XML store share.
@Suite struct XMLEscapingTests {
    /// Every character the policy treats specially, and some it does not.
    static let mixed = "a & b < c > d \" e ' f\tg\nh\ri ]]> café ☕︎ 🎓 \u{7F}\u{85}"

    @Test("element text: & < > and carriage return are escaped; quotes, tab and newline stay")
    func text() throws {
        #expect(
            try XMLEscaping.escaped(Self.mixed, as: .text)
                == "a &amp; b &lt; c &gt; d \" e ' f\tg\nh&#13;i ]]&gt; café ☕︎ 🎓 \u{7F}\u{85}")
    }

    @Test("attribute values: & < \" tab, newline and carriage return are escaped; > and ' stay")
    func attributeValue() throws {
        #expect(
            try XMLEscaping.escaped(Self.mixed, as: .attributeValue)
                == "a &amp; b &lt; c > d &quot; e ' f&#9;g&#10;h&#13;i ]]> café ☕︎ 🎓 \u{7F}\u{85}")
    }

    @Test("text with nothing to escape is appended unchanged")
    func plain() throws {
        var output = "<x>"
        try XMLEscaping.append("plain text, ünïcödé 𝄞", to: &output, as: .text)
        #expect(output == "<x>plain text, ünïcödé 𝄞")
    }

    @Test(
        "characters XML 1.0 cannot hold are refused, naming the first",
        arguments: [
            ("a\u{0}b", "U+0000"), ("a\u{1}\u{2}", "U+0001"), ("\u{1F}", "U+001F"),
            ("x\u{FFFE}", "U+FFFE"), ("\u{FFFF}", "U+FFFF"),
        ])
    func refused(text: String, codePoint: String) {
        for context in [XMLEscaping.Context.text, .attributeValue] {
            let error = #expect(throws: XMLEscaping.UnrepresentableCharacter.self) {
                try XMLEscaping.escaped(text, as: context)
            }
            #expect(error?.codePoint == codePoint)
            #expect(
                error?.description
                    == "the character \(codePoint), which an XML 1.0 file cannot hold")
        }
    }

    @Test("the edges of what XML 1.0 can hold are written as they are")
    func representableEdges() throws {
        let edges = "\u{20}\u{7F}\u{9F}\u{D7FF}\u{E000}\u{FFFD}\u{10000}\u{10FFFF}"
        #expect(try XMLEscaping.escaped(edges, as: .text) == edges)
        #expect(try XMLEscaping.escaped(edges, as: .attributeValue) == edges)
    }

    @Test("the replacing variant writes U+FFFD for what XML cannot hold, and escapes the same")
    func replacing() throws {
        var output = ""
        XMLEscaping.appendReplacingUnrepresentable(
            "a\u{1}b\u{FFFF}\"<", to: &output, as: .attributeValue)
        #expect(output == "a\u{FFFD}b\u{FFFD}&quot;&lt;")
        for context in [XMLEscaping.Context.text, .attributeValue] {
            var replaced = ""
            XMLEscaping.appendReplacingUnrepresentable(Self.mixed, to: &replaced, as: context)
            #expect(try replaced == XMLEscaping.escaped(Self.mixed, as: context))
        }
    }

    @Test(
        "an XML parser reads escaped text back unchanged, in both contexts",
        arguments: [
            Self.mixed, "", " leading and trailing ", "\r\n", "\n\n\t\t", "&amp; already escaped",
            "<tag attr=\"v\">", "]]>", "'single' \"double\"", "line\r\nbreaks\rand\nmore",
        ])
    func parserRoundTrip(text: String) throws {
        let document =
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<r a=\""
            + (try XMLEscaping.escaped(text, as: .attributeValue)) + "\">"
            + (try XMLEscaping.escaped(text, as: .text)) + "</r>\n"
        let (attribute, content) = try Self.parse(document)
        #expect(attribute == text)
        #expect(content == text)
    }

    @Test("attribute names: a letter, _ or : first, then letters, digits, - . _ :")
    func names() {
        for valid in ["name", "_x", "a:b", "x-1.2_3"] {
            #expect(XMLEscaping.isValidName(valid), "\(valid)")
        }
        for invalid in ["", "1x", "-x", "a b", "a\"b", "é"] {
            #expect(!XMLEscaping.isValidName(invalid), "\(invalid)")
        }
    }

    /// The attribute `a` and the text of the root element `r` of `document`, read by libxml2.
    static func parse(_ document: String) throws -> (attribute: String?, text: String) {
        let data = Data(document.utf8)
        return try data.withUnsafeBytes { bytes in
            let reader = try XMLStreamReader(bytes: bytes, path: "test.xml")
            while try reader.read() {
                if reader.kind == .element, reader.name == "r" {
                    let attribute = reader.attribute("a")
                    return (attribute, try reader.elementText())
                }
            }
            throw StoreError.cannotOpen(path: "test.xml", reason: "no <r>")
        }
    }
}
