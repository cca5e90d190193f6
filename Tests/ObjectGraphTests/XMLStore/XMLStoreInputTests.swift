import Foundation
import Testing

@testable import ObjectGraph

/// Hand-written and damaged XML stores: every problem is a ``StoreError`` naming the file (and
/// the line when there is one), never a crash.
@Suite("XML store input")
struct XMLStoreInputTests {
    static let path = "/data/League.xml"

    static let team = """
            <object type="TEAM" id="z102">
                <attribute name="name" type="string">Red</attribute>
                <relationship name="members" type="0/0" destination="PERSON"
                    idrefs="z103 z104"></relationship>
            </object>
        """
    static let person = """
            <object type="PERSON" id="z103">
                <attribute name="name" type="string">Ada</attribute>
                <attribute name="age" type="int16">36</attribute>
                <relationship name="team" type="1/1" destination="TEAM"
                    idrefs="z102"></relationship>
            </object>
        """
    static let player = """
            <object type="PLAYER" id="z104">
                <attribute name="name" type="string">Bob</attribute>
                <attribute name="number" type="int32">7</attribute>
                <relationship name="team" type="1/1" destination="TEAM"
                    idrefs="z102"></relationship>
            </object>
        """

    /// A store document holding `objects`.
    static func document(
        _ objects: [String] = [team, person, player],
        doctype: String = "<!DOCTYPE database SYSTEM \"file:///System/Library/DTDs/CoreData.dtd\">"
    ) -> String {
        """
        <?xml version="1.0" standalone="yes"?>
        \(doctype)

        <database>
            <databaseInfo>
                <version>134481920</version>
                <UUID>0A6C1E3B-1D77-4F1F-9F0E-6A0C7F7D1A11</UUID>
                <nextObjectID>104</nextObjectID>
                <metadata>
                    <plist version="1.0">
                        <dict>
                            <key>NSPersistenceFrameworkVersion</key>
                            <integer>977</integer>
                            <key>BuildNumber</key>
                            <string>A &amp; B</string>
                        </dict>
                    </plist>
                </metadata>
            </databaseInfo>
        \(objects.joined(separator: "\n"))
        </database>

        """
    }

    static let schema = ModelSchema(model: TestModels.league())

    static func read(_ text: String) throws -> AtomicStoreContents {
        try read(Data(text.utf8))
    }

    static func read(_ data: Data) throws -> AtomicStoreContents {
        try XMLStoreFormat().read(data, path: path, schema: schema)
    }

    /// The error reading `text` gives; records an issue when there is none or it is not a
    /// ``StoreError`` naming the file.
    @discardableResult
    static func failure(
        _ data: Data, sourceLocation: Testing.SourceLocation = #_sourceLocation
    ) -> String {
        do {
            _ = try read(data)
            Issue.record("expected an error", sourceLocation: sourceLocation)
            return ""
        } catch let error as StoreError {
            let text = "\(error)"
            #expect(text.hasPrefix(path + ": "), "\(text)", sourceLocation: sourceLocation)
            return text
        } catch {
            Issue.record("not a StoreError: \(error)", sourceLocation: sourceLocation)
            return ""
        }
    }

    @discardableResult
    static func failure(
        _ text: String, sourceLocation: Testing.SourceLocation = #_sourceLocation
    ) -> String {
        failure(Data(text.utf8), sourceLocation: sourceLocation)
    }

    @Test("a hand-written store reads: values, inheritance, both relationship sides, metadata")
    func valid() throws {
        let contents = try Self.read(Self.document())
        #expect(contents.rows.count == 3)
        #expect(contents.metadata.storeUUID == "0A6C1E3B-1D77-4F1F-9F0E-6A0C7F7D1A11")
        #expect(contents.metadata.frameworkVersion == 977)
        #expect(contents.metadata.additionalEntries["BuildNumber"] == "A & B")
        let player = try #require(contents.rows.first { $0.id.entityName == "Player" })
        #expect(player.id.key == .permanent(104))
        let number = try #require(Self.schema.entities[player.entityIndex].positionByName["number"])
        #expect(player.values[number] == .value(.integer(7)))
        let team = try #require(contents.rows.first { $0.id.entityName == "Team" })
        let members = try #require(Self.schema.entities[team.entityIndex].positionByName["members"])
        #expect(
            team.values[members]
                == .toMany([
                    ObjectID(
                        entityName: "Person", storeIdentifier: contents.metadata.storeUUID,
                        key: .permanent(103)),
                    player.id,
                ]))
    }

    @Test("a store written with only one side of its relationships gets both sides")
    func oneSidedRelationships() throws {
        let team = """
                <object type="TEAM" id="z102">
                    <attribute name="name" type="string">Red</attribute>
                </object>
            """
        let person = """
                <object type="PERSON" id="z103">
                    <attribute name="name" type="string">Ada</attribute>
                    <relationship name="team" type="1/1" destination="TEAM"
                        idrefs="z102"></relationship>
                    <relationship name="spouse" type="1/1" destination="PERSON"
                        idrefs="z104"></relationship>
                </object>
            """
        let player = """
                <object type="PLAYER" id="z104">
                    <attribute name="name" type="string">Bob</attribute>
                </object>
            """
        let club = """
                <object type="CLUB" id="z105">
                    <relationship name="members" type="0/0" destination="PERSON"
                        idrefs="z103 z104"></relationship>
                </object>
            """
        let contents = try Self.read(Self.document([team, person, player, club]))
        let rows = Dictionary(uniqueKeysWithValues: contents.rows.map { (RowTable.key($0.id), $0) })
        func value(_ key: Int64, _ name: String) throws -> StoredValue {
            let row = try #require(rows[key])
            let position = try #require(Self.schema.entities[row.entityIndex].positionByName[name])
            return row.values[position]
        }
        let ada = try #require(rows[103]).id
        let bob = try #require(rows[104]).id
        #expect(try value(102, "members") == .toMany([ada]))
        #expect(try value(104, "spouse") == .toOne(ada))
        #expect(try value(103, "clubs") == .toMany([try #require(rows[105]).id]))
        #expect(try value(104, "clubs") == .toMany([try #require(rows[105]).id]))
        #expect(try value(104, "team") == .toOne(nil))
        #expect(try value(105, "members") == .toMany([ada, bob]))
    }

    @Test("a file cut at any byte is refused with the file's name, never half a graph")
    func truncated() throws {
        let data = Data(Self.document().utf8)
        let end = try #require(Self.document().range(of: "</database>")).upperBound
        let complete = Self.document()[..<end].utf8.count
        for length in 0..<complete {
            Self.failure(data.prefix(length))
        }
        #expect(try Self.read(data.prefix(complete)).rows.count == 3)
    }

    @Test("flipped bytes give a graph or a StoreError, never a crash")
    func flippedBytes() {
        let original = [UInt8](Self.document().utf8)
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next() -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int(truncatingIfNeeded: state >> 33)
        }
        var refused = 0
        for _ in 0..<2000 {
            var bytes = original
            for _ in 0..<(1 + next() % 3) {
                bytes[next() % bytes.count] = UInt8(truncatingIfNeeded: next())
            }
            do {
                _ = try Self.read(Data(bytes))
            } catch let error as StoreError {
                #expect("\(error)".hasPrefix(Self.path))
                refused += 1
            } catch {
                Issue.record("not a StoreError: \(error)")
            }
        }
        #expect(refused > 1000)
    }

    @Test("garbage, other formats and wrong roots are refused")
    func garbage() throws {
        var generator = SystemRandomNumberGenerator()
        for size in [1, 7, 100, 5000] {
            let bytes = (0..<size).map { _ in UInt8.random(in: 0...255, using: &generator) }
            Self.failure(Data(bytes))
        }
        Self.failure(Data("SQLite format 3\0".utf8) + Data(count: 100))
        Self.failure("bplist00")
        Self.failure("{\"database\": []}")
        Self.failure("<")
        Self.failure("   ")
        #expect(
            Self.failure("<?xml version=\"1.0\"?><plist><dict/></plist>").contains("<database>"))
        #expect(Self.failure("<database/>").contains("UUID"))
        Self.failure("<database><object type=\"TEAM\" id=\"z1\"></database>")
        Self.failure("<database>text</database>")
        Self.failure(Self.document().replacingOccurrences(of: "<databaseInfo>", with: "<info>"))
        let huge = Self.document().replacingOccurrences(
            of: "<nextObjectID>104", with: "<nextObjectID>9223372036854775807")
        #expect(Self.failure(huge).contains("nextObjectID"))
        // Elements nested deeper than any store needs.
        let deep = String(repeating: "<a>", count: 5000) + String(repeating: "</a>", count: 5000)
        Self.failure(
            "<database><databaseInfo><metadata>\(deep)</metadata></databaseInfo></database>")
    }

    @Test("unknown entities and properties are refused with their line")
    func unknownNames() {
        let unknownEntity = Self.team.replacingOccurrences(of: "TEAM", with: "SQUAD")
        let message = Self.failure(Self.document([unknownEntity, Self.person, Self.player]))
        #expect(message.contains("line 20"), "\(message)")
        #expect(message.contains("SQUAD"))
        let unknownProperty = Self.person.replacingOccurrences(of: "\"age\"", with: "\"height\"")
        let second = Self.failure(Self.document([Self.team, unknownProperty, Self.player]))
        #expect(second.contains("height"))
        #expect(second.contains("line 27"), "\(second)")
        let misplaced = Self.person.replacingOccurrences(
            of: "<relationship name=\"team\"", with: "<attribute name=\"team\""
        )
        .replacingOccurrences(of: "></relationship>", with: "></attribute>")
        #expect(
            Self.failure(Self.document([Self.team, misplaced, Self.player]))
                .contains("relationship"))
    }

    @Test("bad values are refused naming the attribute")
    func badValues() {
        for (from, to) in [
            ("type=\"int16\">36", "type=\"int16\">abc"),
            ("type=\"int16\">36", "type=\"int16\">70000"),
            ("type=\"int16\">36", "type=\"int16\">3.5"),
        ] {
            let person = Self.person.replacingOccurrences(of: from, with: to)
            let message = Self.failure(Self.document([Self.team, person, Self.player]))
            #expect(message.contains("Person.age"), "\(message)")
        }
    }

    @Test("bad ids and idrefs are refused")
    func badReferences() throws {
        let cases: [(String, String, String)] = [
            ("idrefs=\"z103 z104\"", "idrefs=\"z103 z999\"", "z999"),
            ("idrefs=\"z103 z104\"", "idrefs=\"z103 z102\"", "Team"),
            ("idrefs=\"z103 z104\"", "idrefs=\"z103 x104\"", "x104"),
            ("id=\"z102\"", "id=\"102\"", "'102'"),
            ("id=\"z102\"", "id=\"z103\"", "twice"),
            ("id=\"z102\"", "id=\"z0\"", "z0"),
            ("id=\"z102\"", "id=\"z99999999999999999999\"", "z9999"),
            ("id=\"z102\"", "id=\"z9223372036854775807\"", "z9223372036854775807"),
        ]
        for (from, to, expected) in cases {
            let team = Self.team.replacingOccurrences(of: from, with: to)
            let message = Self.failure(Self.document([team, Self.person, Self.player]))
            #expect(message.contains(expected), "\(message)")
            #expect(message.contains("line "), "\(message)")
        }
        // A key map naming a huge key is not trusted (new keys would overflow).
        let mapped = Self.document().replacingOccurrences(
            of: "<key>BuildNumber</key>",
            with: "<key>ObjectGraphXMLObjectKeys</key><dict><key>z102</key>"
                + "<string>Team/p9223372036854775807</string></dict><key>BuildNumber</key>")
        let contents = try Self.read(mapped)
        #expect(contents.rows.contains { $0.id.key == .permanent(102) })
        #expect(contents.nextKeys.values.allSatisfy { $0 == 105 })
        let twoTeams = Self.person.replacingOccurrences(
            of: "idrefs=\"z102\"", with: "idrefs=\"z102 z104\"")
        #expect(
            Self.failure(Self.document([Self.team, twoTeams, Self.player])).contains("to-one"))
    }

    @Test("entity declarations are refused; the DTD is never loaded")
    func entitiesAndDTD() throws {
        let internalEntity = Self.document(
            doctype: "<!DOCTYPE database [<!ENTITY x \"boom\">]>")
        #expect(Self.failure(internalEntity).contains("entity declarations"))
        let external = Self.document(
            doctype: "<!DOCTYPE database [<!ENTITY xxe SYSTEM \"file:///etc/passwd\">]>"
        )
        .replacingOccurrences(of: ">Red<", with: ">&xxe;<")
        #expect(Self.failure(external).contains("line 2"))
        var laughs = "<!DOCTYPE database [<!ENTITY a \"lol\">"
        for level in 1...9 {
            laughs +=
                "<!ENTITY \(Character(UnicodeScalar(97 + level) ?? "z")) \""
                + String(repeating: "&\(Character(UnicodeScalar(96 + level) ?? "y"));", count: 10)
                + "\">"
        }
        laughs += "]>"
        Self.failure(Self.document(doctype: laughs))
        // An undeclared entity reference is an error, not an empty string.
        let undeclared = Self.document().replacingOccurrences(of: ">Red<", with: ">&nope;<")
        Self.failure(undeclared)
        // A DTD that would break the document if it were read is ignored.
        let folder = try TestSupport.makeTemporaryFolder()
        defer { TestSupport.removeTemporaryFolder(folder) }
        let dtd = folder.appendingPathComponent("Evil.dtd")
        try Data("<!ENTITY % broken \"".utf8).write(to: dtd)
        let pointing = Self.document(
            doctype: "<!DOCTYPE database SYSTEM \"\(dtd.absoluteString)\">")
        #expect(try Self.read(pointing).rows.count == 3)
        let network = Self.document(
            doctype: "<!DOCTYPE database SYSTEM \"http://127.0.0.1:9/CoreData.dtd\">")
        #expect(try Self.read(network).rows.count == 3)
    }

    @Test("a damaged file opened through the coordinator gives a StoreError with its path")
    func throughCoordinator() throws {
        let folder = try TestSupport.makeTemporaryFolder()
        defer { TestSupport.removeTemporaryFolder(folder) }
        let url = folder.appendingPathComponent("League.xml")
        try Data(Self.document().utf8.prefix(300)).write(to: url)
        let coordinator = StoreCoordinator(model: TestModels.league())
        do {
            try coordinator.addStore(type: .xml, at: url)
            Issue.record("expected an error")
        } catch let error as StoreError {
            #expect("\(error)".hasPrefix(url.path))
        }
        // A valid file whose metadata has no version hashes: written with another model.
        try Data(Self.document().utf8).write(to: url)
        #expect(throws: StoreError.self) { try coordinator.addStore(type: .xml, at: url) }
    }
}
