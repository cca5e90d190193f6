import Foundation
import Testing

@testable import ObjectGraph

/// Hostile and broken model files: each gives a located error (or loads, where valid), quickly,
/// and never crashes.
@Suite("Bad model input")
struct BadModelInputTests {
    static let valid =
        #"<?xml version="1.0" encoding="UTF-8" standalone="yes"?>"# + "\n"
        + #"<model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0">"# + "\n"
        + #"    <entity name="A" syncable="YES">"# + "\n"
        + #"        <attribute name="x" optional="YES" attributeType="String"/>"# + "\n"
        + "    </entity>\n</model>"

    func load(_ data: Data) throws -> EntityModel {
        try EntityModel(xmlData: data, file: "bad.xml")
    }

    func expectError(
        _ data: Data, kind: ModelError.Kind, line: Int? = nil,
        sourceLocation: Testing.SourceLocation = #_sourceLocation
    ) {
        do {
            _ = try load(data)
            Issue.record("expected \(kind), but the model loaded", sourceLocation: sourceLocation)
        } catch let error as ModelError {
            #expect(error.kind == kind, "\(error)", sourceLocation: sourceLocation)
            #expect(error.location?.file == "bad.xml", sourceLocation: sourceLocation)
            #expect((error.location?.line ?? 0) >= 1, sourceLocation: sourceLocation)
            #expect((error.location?.column ?? 0) >= 1, sourceLocation: sourceLocation)
            if let line {
                #expect(error.location?.line == line, "\(error)", sourceLocation: sourceLocation)
            }
            #expect(error.description.hasPrefix("bad.xml:"), sourceLocation: sourceLocation)
        } catch {
            Issue.record("unexpected error \(error)", sourceLocation: sourceLocation)
        }
    }

    @Test("malformed XML names the line and column")
    func malformed() {
        let broken = Self.valid.replacingOccurrences(
            of: "<attribute name", with: "<attribut e name"
        )
        .replacingOccurrences(of: "</entity>", with: "</entityy>")
        expectError(Data(broken.utf8), kind: .malformedXML, line: 4)
    }

    @Test("a truncated file at every length is an error, never a crash")
    func truncated() {
        let bytes = Array(Self.valid.utf8)
        for length in stride(from: 0, to: bytes.count - 1, by: 7) {
            #expect(throws: ModelError.self) { try load(Data(bytes.prefix(length))) }
        }
    }

    @Test("an empty file")
    func empty() {
        expectError(Data(), kind: .malformedXML, line: 1)
    }

    @Test("binary garbage")
    func binary() {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<4096).map { _ in UInt8.random(in: 0...255, using: &generator) }
        expectError(Data([0x00, 0xFF] + bytes), kind: .malformedXML)
    }

    @Test("a file whose root is not <model>")
    func wrongRoot() {
        expectError(Data("<plist version=\"1.0\"><dict/></plist>".utf8), kind: .invalidStructure)
    }

    @Test("UTF-16 with a byte order mark loads")
    func utf16() throws {
        let text = Self.valid.replacingOccurrences(of: "UTF-8", with: "UTF-16")
        var data = Data([0xFF, 0xFE])
        data.append(text.data(using: .utf16LittleEndian) ?? Data())
        let model = try load(data)
        #expect(model.entity(named: "A")?.attributes.count == 1)
    }

    @Test("50,000-deep nesting is refused quickly")
    func deepNesting() {
        let open = String(repeating: "<entity name=\"A\">", count: 50_000)
        let close = String(repeating: "</entity>", count: 50_000)
        let text = "<model>" + open + close + "</model>"
        expectError(Data(text.utf8), kind: .malformedXML)
    }

    @Test("20 MB default and user info values load whole (beyond libxml2's 10 MB default limit)")
    func hugeAttribute() throws {
        let big = String(repeating: "x", count: 20 * 1024 * 1024)
        let escaped = String(repeating: "a&amp;b", count: 2 * 1024 * 1024)
        let text = Self.valid.replacingOccurrences(
            of: "attributeType=\"String\"/>",
            with: "attributeType=\"String\" defaultValueString=\"\(big)\"/>"
                + "<userInfo><entry key=\"blob\" value=\"\(escaped)\"/></userInfo>")
        let model = try load(Data(text.utf8))
        let entity = try #require(model.entity(named: "A"))
        #expect(entity.attributes.first?.defaultValueString?.utf8.count == big.utf8.count)
        #expect(entity.userInfo.entries.first?.value.utf8.count == 3 * 2 * 1024 * 1024)
        #expect(entity.userInfo.entries.first?.value.hasPrefix("a&ba&b") == true)
        #expect(!model.validate().contains { $0.severity == .error })
    }

    @Test("external entities are never resolved")
    func externalEntity() throws {
        let folder = try TestSupport.makeTemporaryFolder()
        defer { TestSupport.removeTemporaryFolder(folder) }
        let secret = folder.appendingPathComponent("secret.txt")
        try Data("TOP-SECRET".utf8).write(to: secret)
        let text = """
            <?xml version="1.0"?>
            <!DOCTYPE model [ <!ENTITY xxe SYSTEM "file://\(secret.path)"> ]>
            <model><entity name="&xxe;"/></model>
            """
        expectError(Data(text.utf8), kind: .forbiddenConstruct, line: 2)
    }

    @Test("entity expansion cannot blow up (billion laughs)")
    func billionLaughs() {
        var text = "<?xml version=\"1.0\"?>\n<!DOCTYPE model [\n<!ENTITY lol \"lol\">\n"
        for level in 1...9 {
            let previous = level == 1 ? "lol" : "lol\(level - 1)"
            text +=
                "<!ENTITY lol\(level) \"" + String(repeating: "&\(previous);", count: 10) + "\">\n"
        }
        text += "]>\n<model><entity name=\"&lol9;\"/></model>"
        expectError(Data(text.utf8), kind: .forbiddenConstruct, line: 3)
    }

    @Test("a file that does not exist, and a folder without contents")
    func missingFiles() throws {
        let folder = try TestSupport.makeTemporaryFolder()
        defer { TestSupport.removeTemporaryFolder(folder) }
        let missing = folder.appendingPathComponent("Nope.xcdatamodel")
        #expect(throws: ModelError.self) { try EntityModel(contentsOf: missing) }
        let empty = folder.appendingPathComponent("Empty.xcdatamodel")
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
        do {
            _ = try EntityModel(contentsOf: empty)
            Issue.record("expected an error")
        } catch let error as ModelError {
            #expect(error.kind == .notAModel)
            #expect(error.description.contains("Empty.xcdatamodel"))
            #expect(error.description.contains("contents"))
        }
    }

    @Test("a legacy binary model says what it is")
    func legacyBinary() throws {
        let folder = try TestSupport.makeTemporaryFolder()
        defer { TestSupport.removeTemporaryFolder(folder) }
        let legacy = folder.appendingPathComponent("Old.xcdatamodel")
        try FileManager.default.createDirectory(at: legacy, withIntermediateDirectories: true)
        try Data([0x62, 0x70]).write(to: legacy.appendingPathComponent("elements"))
        do {
            _ = try EntityModel(contentsOf: legacy)
            Issue.record("expected an error")
        } catch let error as ModelError {
            #expect(error.kind == .notAModel)
            #expect(error.message.contains("legacy binary"))
        }
    }
}
