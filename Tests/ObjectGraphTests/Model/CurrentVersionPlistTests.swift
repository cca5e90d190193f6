import Foundation
import Testing

@testable import ObjectGraph

/// `.xccurrentversion` names the current version through ``XMLEscaping``'s element-text
/// policy. Its own escaper escaped only `&`, `<` and `>`: a carriage return was written raw (an
/// XML parser reads it back as a line feed) and a control character made the file ill-formed.
@Suite struct CurrentVersionPlistTests {
    @Test("a carriage return is written as &#13;, so an XML parser reads the name back")
    func carriageReturn() throws {
        let name = "A & B <1>\r.xcdatamodel"
        let plist = try ModelFileTarget.currentVersionPlist(naming: name)
        let text = String(decoding: plist, as: UTF8.self)
        #expect(text.contains("\t<string>A &amp; B &lt;1&gt;&#13;.xcdatamodel</string>\n"))
        #expect(try Self.versionName(in: text) == name)

        // The old output, with the carriage return raw, reads back as a different name.
        let raw = text.replacingOccurrences(of: "&#13;", with: "\r")
        #expect(try Self.versionName(in: raw) == "A & B <1>\n.xcdatamodel")
    }

    @Test("a bundle whose name holds a carriage return is written and opened again")
    func bundleRoundTrip() throws {
        let folder = try TestSupport.makeTemporaryFolder()
        defer { TestSupport.removeTemporaryFolder(folder) }
        let url = folder.appendingPathComponent("Odd\rName.xcdatamodeld")
        let model = EntityModel(entities: [
            Entity("Note", attributes: [Attribute("text", type: .string)])
        ])
        try model.write(to: url)
        let bundle = try ModelBundle(contentsOf: url)
        #expect(bundle.currentVersionName == "Odd\rName")
        #expect(bundle.currentVersionSource == .recorded)
    }

    @Test("a version name XML cannot hold is refused before anything is written")
    func unrepresentableName() throws {
        let folder = try TestSupport.makeTemporaryFolder()
        defer { TestSupport.removeTemporaryFolder(folder) }
        let url = folder.appendingPathComponent("Bell\u{7}.xcdatamodeld")
        let model = EntityModel(entities: [
            Entity("Note", attributes: [Attribute("text", type: .string)])
        ])
        let error = #expect(throws: ModelWriteError.self) { try model.write(to: url) }
        #expect(error?.reason.contains("U+0007") == true)
        #expect(!FileManager.default.fileExists(atPath: url.path))
    }

    /// The `<string>` of a `.xccurrentversion` document, read by libxml2.
    static func versionName(in document: String) throws -> String? {
        let data = Data(document.utf8)
        return try data.withUnsafeBytes { bytes in
            let reader = try XMLStreamReader(bytes: bytes, path: ".xccurrentversion")
            while try reader.read() {
                if reader.kind == .element, reader.name == "string" {
                    return try reader.elementText()
                }
            }
            return nil
        }
    }
}
