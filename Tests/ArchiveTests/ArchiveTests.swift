import Archive
import Foundation
import Testing

struct Person: Codable, Equatable {
    var name: String
    var age: Int
    var born: Date
    var photo: Data?
    var friends: [String]
    var scores: [String: Double]
}

struct Pet: Codable, Equatable {
    var species: String
    var legs: Int
}

@Suite struct ArchiveTests {
    let ada = Person(
        name: "Ada", age: 36, born: Date(timeIntervalSince1970: -4_000_000_000),
        photo: Data([1, 2, 3]), friends: ["Charles"], scores: ["math": 9.5])

    @Test(arguments: [Archive.Format.binary, .xml])
    func fileRoundTrip(format: Archive.Format) throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let url = folder.url.appendingPathComponent("deep/folder/ada.plist")
        try Archive.write(ada, to: url, format: format)
        #expect(try Archive.read(Person.self, from: url) == ada)
        // Foundation reads the archive as an ordinary property list.
        let data = try Data(contentsOf: url)
        var read = PropertyListSerialization.PropertyListFormat.openStep
        let object = try PropertyListSerialization.propertyList(from: data, format: &read)
        #expect(read == (format == .binary ? .binary : .xml))
        #expect((object as? [String: Any])?["name"] as? String == "Ada")
    }

    @Test func writingReplacesAtomically() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let url = folder.url.appendingPathComponent("ada.plist")
        try Archive.write(ada, to: url)
        var older = ada
        older.age = 37
        try Archive.write(older, to: url)
        #expect(try Archive.read(Person.self, from: url).age == 37)
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: folder.url.path) == ["ada.plist"])
    }

    @Test func dataRoundTrip() throws {
        let data = try Archive.encode(ada)
        #expect(data.starts(with: Array("bplist".utf8)))
        #expect(try Archive.decode(Person.self, from: data) == ada)
        let xml = try Archive.encode([ada, ada], format: .xml)
        #expect(xml.starts(with: Array("<?xml".utf8)))
        #expect(try Archive.decode([Person].self, from: xml) == [ada, ada])
    }

    @Test func bareValuesAreWrapped() throws {
        #expect(try Archive.decode(Int.self, from: Archive.encode(42)) == 42)
        #expect(try Archive.decode(String.self, from: Archive.encode("text")) == "text")
        let date = Date(timeIntervalSince1970: 5)
        #expect(try Archive.decode(Date.self, from: Archive.encode(date)) == date)
        let object = try PropertyListSerialization.propertyList(
            from: Archive.encode(42), format: nil)
        #expect((object as? [String: Any])?[Archive.rootKey] as? Int == 42)
        #expect(try Archive.decode(Int?.self, from: Archive.encode(Int?.some(3))) == 3)
    }

    @Test func aMissingFileIsATypedError() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let url = folder.url.appendingPathComponent("nothing.plist")
        #expect(throws: ArchiveError.fileNotFound(path: url.path)) {
            try Archive.read(Person.self, from: url)
        }
    }

    @Test func theWrongTypeIsATypedError() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let url = folder.url.appendingPathComponent("pet.plist")
        try Archive.write(Pet(species: "cat", legs: 4), to: url)
        let error = #expect(throws: ArchiveError.self) {
            try Archive.read(Person.self, from: url)
        }
        guard case .wrongType(let path, let type, let reason) = error else {
            Issue.record("unexpected \(String(describing: error))")
            return
        }
        #expect(path == url.path)
        #expect(type == "Person")
        #expect(reason.contains("name"), "says which key is missing: \(reason)")
        #expect(throws: ArchiveError.self) {
            try Archive.decode(Int.self, from: Archive.encode("not a number"))
        }
    }

    @Test(arguments: ["garbage", "truncated binary", "truncated xml", "empty", "old-style text"])
    func corruptionIsATypedError(kind: String) throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let url = folder.url.appendingPathComponent("bad.plist")
        let contents: Data
        switch kind {
        case "garbage": contents = Data("this is not a plist at all".utf8)
        case "old-style text": contents = Data("{ name = Ada; age = 36; }".utf8)
        case "truncated binary":
            let data = try Archive.encode(ada)
            contents = data.prefix(data.count - 12)
        case "truncated xml":
            let data = try Archive.encode(ada, format: .xml)
            contents = data.prefix(data.count / 2)
        default: contents = Data()
        }
        try contents.write(to: url)
        let error = #expect(throws: ArchiveError.self) {
            try Archive.read(Person.self, from: url)
        }
        guard case .corrupt(let path, let reason) = error else {
            Issue.record("unexpected \(String(describing: error))")
            return
        }
        #expect(path == url.path)
        #expect(!reason.isEmpty)
        #expect(error?.description.contains("corrupt") == true)
    }

    /// A binary property list valid by the format that Foundation's reader crashes on (a set
    /// holding a dictionary) is a corrupt archive, not a crash.
    @Test func aSetOfADictionaryIsCorruptNotACrash() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let url = folder.url.appendingPathComponent("set.plist")
        try Data([
            0x62, 0x70, 0x6C, 0x69, 0x73, 0x74, 0x30, 0x30, 0xD1, 0x01, 0x02, 0x51, 0x6B, 0xC1,
            0x03, 0xD0, 0x08, 0x0B, 0x0D, 0x0F, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x01, 0x01,
            0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x04, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
            0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x10,
        ]).write(to: url)
        let error = #expect(throws: ArchiveError.self) {
            try Archive.read(Person.self, from: url)
        }
        guard case .corrupt(let path, let reason) = error else {
            Issue.record("unexpected \(String(describing: error))")
            return
        }
        #expect(path == url.path)
        #expect(reason.contains("set"))
    }

    @Test func encodingFailuresAreTypedErrors() {
        struct Refuses: Encodable {
            func encode(to encoder: any Encoder) throws {
                throw EncodingError.invalidValue(
                    self, .init(codingPath: [], debugDescription: "never"))
            }
        }
        let error = #expect(throws: ArchiveError.self) { try Archive.encode(Refuses()) }
        guard case .encodingFailed(let type, _) = error else {
            Issue.record("unexpected \(String(describing: error))")
            return
        }
        #expect(type == "Refuses")
    }

    @Test func anUnwritablePlaceIsATypedError() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let blocker = folder.url.appendingPathComponent("file")
        try Data("x".utf8).write(to: blocker)
        let error = #expect(throws: ArchiveError.self) {
            try Archive.write(ada, to: blocker.appendingPathComponent("inside.plist"))
        }
        guard case .fileSystem = error else {
            Issue.record("unexpected \(String(describing: error))")
            return
        }
    }
}
