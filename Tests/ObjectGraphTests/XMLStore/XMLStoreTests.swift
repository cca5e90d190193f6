import Foundation
import Testing

@testable import ObjectGraph

@Suite("XML store")
struct XMLStoreTests {
    static func open(_ url: URL, model: EntityModel = allTypesModel(), readOnly: Bool = false)
        throws -> ManagedContext
    {
        let coordinator = StoreCoordinator(model: model)
        try coordinator.addStore(type: .xml, at: url, options: StoreOptions(isReadOnly: readOnly))
        return ManagedContext(coordinator: coordinator)
    }

    /// The league model plus an entity with one attribute of every type.
    static func allTypesModel() -> EntityModel {
        var all = Entity("All")
        all.attributes = [
            Attribute("i16", type: .integer16), Attribute("i32", type: .integer32),
            Attribute("i64", type: .integer64), Attribute("dec", type: .decimal),
            Attribute("dbl", type: .double), Attribute("flt", type: .float),
            Attribute("str", type: .string), Attribute("flag", type: .boolean),
            Attribute("when", type: .date), Attribute("bytes", type: .binary),
            Attribute("id", type: .uuid), Attribute("link", type: .uri),
            Attribute("blob", type: .transformable),
        ]
        return EntityModel(entities: TestModels.league().entities + [all])
    }

    static let date = Date(timeIntervalSinceReferenceDate: 259_257_125.711286)
    static let uuid = UUID(uuidString: "3F477D57-4044-4E9E-9845-6B9B63B11BB7") ?? UUID()
    static let text = "héllo \"world\" <&> ' \t\r\n ⭐️ ]]> end"

    /// Saves one `All` with every type set, one with every attribute nil, and a league with
    /// every relationship shape; returns the IDs of the objects.
    @discardableResult
    static func populate(_ context: ManagedContext) throws -> [String: ObjectID] {
        let object = try context.insert("All")
        let values: [(String, any ValueConvertible)] = [
            ("i16", Int16(-7)), ("i32", Int32(1 << 30)), ("i64", Int64.min),
            ("dec", Decimal(string: "12345678901234567890.123456789") ?? 0), ("dbl", 0.1),
            ("flt", Float(1.5)), ("str", text), ("flag", true), ("when", date),
            ("bytes", Data((0..<200).map { UInt8($0 % 256) })), ("id", uuid),
            ("link", URL(string: "https://example.com/a?b=c&d=e") ?? URL(fileURLWithPath: "/")),
            ("blob", Data("x".utf8)),
        ]
        for (key, value) in values { try object.set(value, for: key) }
        let empty = try context.insert("All")
        let red = try context.insert("Team")
        try red.set("Red", for: "name")
        var people: [ManagedObject] = []
        for name in ["A", "B", "C"] {
            let person = try context.insert(name == "C" ? "Player" : "Person")
            try person.set(name, for: "name")
            try person.set("\(name)@x", for: "email")
            people.append(person)
        }
        try people[2].set(Int32(10), for: "number")
        try red.setObjects(people, for: "members")
        try red.setObjects([people[2], people[0], people[1]], for: "roster")
        try red.setObject(people[1], for: "captain")
        try people[0].setObject(people[1], for: "spouse")
        let chess = try context.insert("Club")
        try chess.set("Chess", for: "title")
        let go = try context.insert("Club")
        try go.set("Go", for: "title")
        try chess.setObjects([people[0], people[2]], for: "members")
        try go.setObjects([people[0]], for: "members")
        try context.save()
        return [
            "all": object.objectID, "empty": empty.objectID, "red": red.objectID,
            "A": people[0].objectID, "B": people[1].objectID, "C": people[2].objectID,
            "chess": chess.objectID,
        ]
    }

    @Test("values of every type, nils and every relationship shape survive a reopen")
    func roundTrip() throws {
        let folder = try TestSupport.makeTemporaryFolder()
        defer { TestSupport.removeTemporaryFolder(folder) }
        let url = folder.appendingPathComponent("League.xml")
        let ids = try Self.populate(try Self.open(url))
        let context = try Self.open(url)
        let object = try context.existingObject(with: try #require(ids["all"]))
        #expect(object["i16"] as Int? == -7)
        #expect(object["i32"] as Int? == 1 << 30)
        #expect(object["i64"] as Int64? == Int64.min)
        #expect(object["dec"] == .decimal(Decimal(string: "12345678901234567890.123456789") ?? 0))
        #expect(object["dbl"] as Double? == 0.1)
        #expect(object["flt"] as Double? == 1.5)
        #expect(object["str"] as String? == Self.text)
        #expect(object["flag"] as Bool? == true)
        #expect(object["when"] as Date? == Self.date)
        #expect(object["bytes"] as Data? == Data((0..<200).map { UInt8($0 % 256) }))
        #expect(object["id"] as UUID? == Self.uuid)
        #expect(object["link"] as URL? == URL(string: "https://example.com/a?b=c&d=e"))
        #expect(object["blob"] as Data? == Data("x".utf8))
        let empty = try context.existingObject(with: try #require(ids["empty"]))
        for key in ["i16", "dec", "str", "flag", "when", "bytes", "id", "link", "blob"] {
            #expect(empty[key] == .null, "\(key) should stay nil")
        }
        let red = try context.existingObject(with: try #require(ids["red"]))
        let members = try red.objects(for: "members").compactMap { $0["name"] as String? }
        #expect(Set(members) == ["A", "B", "C"])
        #expect(
            try red.objects(for: "roster").compactMap { $0["name"] as String? } == ["C", "A", "B"])
        #expect(try red.object(for: "captain")?["name"] as String? == "B")
        let a = try context.existingObject(with: try #require(ids["A"]))
        let b = try context.existingObject(with: try #require(ids["B"]))
        let c = try context.existingObject(with: try #require(ids["C"]))
        #expect(c.entity.name == "Player")
        #expect(c["number"] as Int? == 10)
        #expect(try a.object(for: "spouse") === b)
        #expect(try b.object(for: "spouse") === a)
        #expect(try a.object(for: "team") === red)
        #expect(
            Set(try a.objects(for: "clubs").compactMap { $0["title"] as String? }) == [
                "Chess", "Go",
            ])
        #expect(try c.objects(for: "clubs").compactMap { $0["title"] as String? } == ["Chess"])
        #expect(try b.objects(for: "clubs").isEmpty)
    }

    @Test("object IDs keep their URIs across saves and reopens")
    func stableIdentities() throws {
        let folder = try TestSupport.makeTemporaryFolder()
        defer { TestSupport.removeTemporaryFolder(folder) }
        let url = folder.appendingPathComponent("League.xml")
        // New objects of several inheritance trees share primary keys (p1 for Team, Person and
        // Club): their ids differ in the file, their URIs do not change.
        let ids = try Self.populate(try Self.open(url))
        var later: [ObjectID] = []
        do {
            let context = try Self.open(url)
            for id in ids.values {
                #expect(try context.existingObject(with: id).objectID == id)
            }
            let person = try context.insert("Person")
            try person.set("P", for: "name")
            let team = try context.insert("Team")
            try team.set("T", for: "name")
            try context.save()
            later = [person.objectID, team.objectID]
        }
        let before = try Data(contentsOf: url)
        let context = try Self.open(url)
        for id in Array(ids.values) + later {
            #expect(try context.existingObject(with: id).objectID == id)
        }
        #expect(try context.existingObject(with: later[1])["name"] as String? == "T")
        try context.existingObject(with: later[0]).set("Q", for: "name")
        try context.save()
        let again = try Self.open(url)
        #expect(try again.existingObject(with: later[0])["name"] as String? == "Q")
        // Saving again keeps every object's id in the file.
        let after = try Data(contentsOf: url)
        let idsBefore = Self.matches(
            of: #"(id="z\d+")"#, in: String(decoding: before, as: UTF8.self))
        let idsAfter = Self.matches(of: #"(id="z\d+")"#, in: String(decoding: after, as: UTF8.self))
        #expect(idsBefore == idsAfter)
    }

    @Test("updates and deletes are written; relationships to deleted objects disappear")
    func updatesAndDeletes() throws {
        let folder = try TestSupport.makeTemporaryFolder()
        defer { TestSupport.removeTemporaryFolder(folder) }
        let url = folder.appendingPathComponent("League.xml")
        let ids = try Self.populate(try Self.open(url))
        do {
            let context = try Self.open(url)
            let chess = try context.existingObject(with: try #require(ids["chess"]))
            context.delete(chess)
            try context.existingObject(with: try #require(ids["B"])).set("Bea", for: "name")
            try context.save()
        }
        let context = try Self.open(url)
        #expect(try context.count(for: FetchRequest(entityName: "Club")) == 1)
        #expect(
            try context.existingObject(with: try #require(ids["B"]))["name"] as String? == "Bea")
        let a = try context.existingObject(with: try #require(ids["A"]))
        #expect(try a.objects(for: "clubs").compactMap { $0["title"] as String? } == ["Go"])
    }

    @Test("the file looks like Core Data's: header, databaseInfo, metadata, objects")
    func layout() throws {
        let folder = try TestSupport.makeTemporaryFolder()
        defer { TestSupport.removeTemporaryFolder(folder) }
        let url = folder.appendingPathComponent("League.xml")
        let context = try Self.open(url)
        try Self.populate(context)
        let text = String(decoding: try Data(contentsOf: url), as: UTF8.self)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines[0] == "<?xml version=\"1.0\" standalone=\"yes\"?>")
        #expect(
            lines[1] == "<!DOCTYPE database SYSTEM \"file:///System/Library/DTDs/CoreData.dtd\">")
        #expect(lines[2] == "")
        #expect(lines[3] == "<database>")
        #expect(lines[4] == "    <databaseInfo>")
        #expect(lines[5] == "        <version>134481920</version>")
        let storeUUID = try #require(context.coordinator.storeDescriptions.first?.identifier)
        #expect(lines[6] == "        <UUID>\(storeUUID)</UUID>")
        #expect(lines[7].hasPrefix("        <nextObjectID>"))
        #expect(lines[8] == "        <metadata>")
        #expect(lines[9] == "            <plist version=\"1.0\">")
        #expect(lines[10] == "                <dict>")
        #expect(text.contains("<key>NSStoreModelVersionHashes</key>"))
        #expect(text.contains("<key>NSPersistenceFrameworkVersion</key>"))
        #expect(!text.contains("NSStoreType"))
        #expect(!text.contains("NSStoreUUID"))
        #expect(text.hasSuffix("    </object>\n</database>\n"))
        #expect(text.contains("<object type=\"PLAYER\" id=\"z"))
        #expect(text.contains("<attribute name=\"i16\" type=\"int16\">-7</attribute>"))
        #expect(text.contains("<attribute name=\"flag\" type=\"bool\">1</attribute>"))
        #expect(
            text.contains(
                "<attribute name=\"id\" type=\"uuid\">\(Self.uuid.uuidString)</attribute>"))
        #expect(
            text.contains(
                "<attribute name=\"when\" type=\"date\">259257125.71128600835800170898</attribute>")
        )
        #expect(text.contains("<attribute name=\"flt\" type=\"float\">1.5</attribute>"))
        #expect(
            text.contains("<attribute name=\"link\" type=\"uri\">https://example.com/a?b=c&amp;d=e")
        )
        #expect(text.contains("héllo \"world\" &lt;&amp;&gt; ' \t&#13;\n ⭐️ ]]&gt; end"))
        #expect(text.contains(" type=\"0/0\" destination=\"PERSON\" idrefs=\"z"))
        #expect(
            text.contains(
                "<relationship name=\"badges\" type=\"0/0\" destination=\"BADGE\"></relationship>"))
        #expect(text.contains("<relationship name=\"spouse\" type=\"1/1\" destination=\"PERSON\""))
        // Base64 in 76-character lines, as Apple writes binary attributes.
        #expect(
            text.contains(
                "type=\"binary\">AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8g"
                    + "ISIjJCUmJygpKissLS4vMDEyMzQ1Njc4\n"))
        // Nil attributes are not written; transient ones never.
        #expect(!text.contains("name=\"memo\""))
        for line in lines.dropFirst(3) where !line.isEmpty {
            let indent = line.prefix { $0 == " " }.count
            #expect(indent % 4 == 0 || !line.hasPrefix(" <"), "indentation of \(line)")
        }
        // Every id is unique and every idref names one of them.
        let ids = Self.matches(of: #"id="(z\d+)""#, in: text)
        #expect(Set(ids).count == ids.count)
        let refs = Self.matches(of: #"idrefs="([z\d ]+)""#, in: text)
            .flatMap { $0.split(separator: " ").map(String.init) }
        #expect(Set(refs).isSubset(of: Set(ids)))
    }

    @Test("the written file is read back equal, and writing it again gives the same bytes")
    func rereadEqual() throws {
        let folder = try TestSupport.makeTemporaryFolder()
        defer { TestSupport.removeTemporaryFolder(folder) }
        let url = folder.appendingPathComponent("League.xml")
        try Self.populate(try Self.open(url))
        let schema = ModelSchema(model: Self.allTypesModel())
        let format = XMLStoreFormat()
        let first = try Data(contentsOf: url)
        let contents = try format.read(first, path: url.path, schema: schema)
        let second = try format.write(contents, schema: schema)
        #expect(second == first)
        let again = try format.read(second, path: url.path, schema: schema)
        #expect(Set(again.rows) == Set(contents.rows))
        #expect(again.metadata == contents.metadata)
        #expect(contents.metadata.storeType == "XML")
        #expect(contents.metadata.versionHashes == Self.allTypesModel().entityVersionHashes)
    }

    @Test("a store opened read-only refuses saves and keeps the file")
    func readOnly() throws {
        let folder = try TestSupport.makeTemporaryFolder()
        defer { TestSupport.removeTemporaryFolder(folder) }
        let url = folder.appendingPathComponent("League.xml")
        let ids = try Self.populate(try Self.open(url))
        let before = try Data(contentsOf: url)
        let context = try Self.open(url, readOnly: true)
        try context.existingObject(with: try #require(ids["red"])).set("Blue", for: "name")
        #expect(throws: (any Error).self) { try context.save() }
        #expect(try Data(contentsOf: url) == before)
    }

    @Test("a string XML cannot hold is refused at save with a clear error")
    func unrepresentableText() throws {
        let folder = try TestSupport.makeTemporaryFolder()
        defer { TestSupport.removeTemporaryFolder(folder) }
        let url = folder.appendingPathComponent("League.xml")
        let context = try Self.open(url)
        try context.insert("Team").set("bell \u{7}", for: "name")
        do {
            try context.save()
            Issue.record("expected an error")
        } catch {
            #expect("\(error)".contains("U+0007"))
        }
    }

    @Test("an XML store needs a URL")
    func needsURL() {
        let coordinator = StoreCoordinator(model: TestModels.league())
        #expect(throws: ObjectGraphError.self) { try coordinator.addStore(type: .xml) }
    }

    static func matches(of pattern: String, in text: String) -> [String] {
        guard let regex = try? NSRegularExpression(pattern: pattern) else { return [] }
        let range = NSRange(text.startIndex..., in: text)
        return regex.matches(in: text, range: range).compactMap { match in
            Range(match.range(at: 1), in: text).map { String(text[$0]) }
        }
    }
}
