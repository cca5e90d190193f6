import Foundation
import Testing

@testable import ObjectGraph

/// Models and helpers the writer tests use (paths and temporary folders come from
/// ``TestSupport``).
private enum WriterFixtures {
    /// `xcdatamodel` in the shared corpus, or `nil` when the corpus is absent.
    static let corpus: URL? = TestSupport.corpus.map { $0.appendingPathComponent("xcdatamodel") }

    /// Runs `body` with a new empty temporary folder, then removes it.
    static func withTemporaryFolder(_ body: (URL) throws -> Void) throws {
        let folder = try TestSupport.makeTemporaryFolder()
        defer { TestSupport.removeTemporaryFolder(folder) }
        try body(folder)
    }

    /// The written XML of `model` as text.
    static func xml(_ model: EntityModel) -> String {
        String(decoding: model.xmlData(), as: UTF8.self)
    }

    /// The lines of `model`'s XML.
    static func lines(_ model: EntityModel) -> [String] {
        xml(model).components(separatedBy: "\n")
    }

    /// A model that uses every element and field the writer knows.
    static func everything() -> EntityModel {
        var person = Entity("Person", className: ".Person", isAbstract: true)
        person.renamingIdentifier = "OldPerson"
        person.versionHashModifier = "v2"
        person.isSyncable = true
        person.codeGeneration = .classDefinition
        person.userInfo = ["key with.dots": #"say "hi" <there> & bye"#]

        var age = Attribute("age", type: .integer16, defaultValueString: "0")
        age.minValueString = "0"
        age.maxValueString = "150"
        age.usesScalarValueType = true
        age.isIndexed = true
        var born = Attribute("born", type: .date, isOptional: false)
        born.minDateTimeInterval = -978_285_600
        born.maxDateTimeInterval = 700_000_000.5
        born.defaultDateTimeInterval = 366_809_773.747109
        born.usesScalarValueType = false
        var email = Attribute("email", type: .string)
        email.regularExpression = #"\A[^@]+@([^@\.]+\.)+[^@\.]+\z"#
        email.isIndexedBySpotlight = true
        email.preservesValueInHistoryOnDeletion = true
        email.renamingIdentifier = "mail"
        email.versionHashModifier = "x"
        email.userInfo = ["JSONKeyPath": "e_mail"]
        var photo = Attribute("photo", type: .binary)
        photo.allowsExternalBinaryDataStorage = true
        photo.isStoredInExternalRecord = true
        var tags = Attribute("tags", type: .transformable)
        tags.valueTransformerName = "NSSecureUnarchiveFromData"
        tags.customClassName = "[String]"
        var count = Attribute("count", type: .integer64)
        count.isDerived = true
        count.derivationExpression = "friends.@count"
        count.usesScalarValueType = true
        var scratch = Attribute("scratch", type: .undefined, isTransient: true)
        scratch.isSyncable = true
        scratch.unknownXMLAttributes = ["zeta": "1", "alpha": "2"]
        var note = Attribute("note", type: .string, defaultValueString: "line 1\nline 2\ttab\r")
        note.customClassName = "NSString"
        var place = Attribute("place", type: .composite)
        place.compositeName = "Location"
        person.attributes = [age, born, email, photo, tags, count, scratch, note, place]

        var friends = Relationship(
            "friends", destination: "Person", toMany: true, inverse: "friends",
            deleteRule: .cascade, isOrdered: true)
        friends.minCountString = "1"
        friends.maxCountString = "10"
        friends.isIndexed = true
        friends.isSyncable = true
        friends.renamingIdentifier = "pals"
        friends.versionHashModifier = "h"
        friends.userInfo = ["a": "b"]
        var home = Relationship(
            "home", destination: "Place", deleteRule: .noAction, isOptional: false)
        home.isTransient = true
        var weird = Relationship("weird", destination: "Place")
        weird.unknownDeleteRule = "Explode"
        weird.isIndexedBySpotlight = true
        weird.isStoredInExternalRecord = true
        weird.unknownXMLAttributes = ["extra": "yes"]
        person.relationships = [friends, home, weird]

        var neighbours = FetchedProperty(
            "neighbours",
            fetchRequest: FetchTemplate(
                "fetchedPropertyFetchRequest", entity: "Person",
                predicate: "home == $FETCH_SOURCE.home"))
        neighbours.isSyncable = true
        neighbours.userInfo = ["k": "v"]
        person.fetchedProperties = [neighbours]
        person.fetchIndexes = [
            FetchIndex(
                "byAge",
                elements: [
                    FetchIndex.Element(property: "age", isAscending: false),
                    FetchIndex.Element(property: "email"),
                ])
        ]
        person.uniquenessConstraints = [["email", "age"], ["born"]]
        person.compoundIndexes = [["age", "email"]]
        person.unknownXMLAttributes = ["futureFlag": "YES"]

        var place2 = Entity("Place")
        place2.isSyncable = true
        var student = Entity("Student", className: "Student", parent: "Person")
        student.codeGeneration = .category
        var other = Entity("Other")
        other.codeGeneration = .other("none")

        var adults = FetchTemplate("adults", entity: "Person", predicate: "age >= 18 AND age < 99")
        adults.fetchLimit = 100
        adults.fetchBatchSize = 10
        adults.resultType = 2
        adults.includesSubentities = true
        adults.includesPropertyValues = true
        adults.includesPendingChanges = true
        adults.returnsObjectsAsFaults = true
        adults.returnsDistinctResults = true
        adults.unknownXMLAttributes = ["hint": "x"]

        var header = ModelHeader()
        header.usedWithCloudKit = "true"
        header.usedWithSwiftData = "YES"
        header.unknownXMLAttributes = ["zz": "1"]

        return EntityModel(
            entities: [person, place2, student, other],
            fetchTemplates: [adults, FetchTemplate("all", entity: "Place")],
            configurations: [
                Configuration("Cloud", entities: ["Person", "Place"], isUsedWithCloudKit: true),
                Configuration("Empty", entities: []),
            ],
            composites: [
                Composite(
                    "Location",
                    attributes: [
                        Attribute("latitude", type: .double), Attribute("longitude", type: .double),
                    ])
            ],
            versionIdentifier: "1.0 Beta",
            header: header,
            layout: [
                LayoutElement(
                    name: "Person", positionX: "-63", positionY: "-18.5", width: "128",
                    height: "74")
            ])
    }
}

@Suite("Writing models in Xcode's format")
struct ModelWriterTests {
    // MARK: - Lexical format

    @Test("the first line is Xcode's XML declaration and nothing follows </model>")
    func declarationAndNoTrailingNewline() {
        let model = EntityModel(entities: [Entity("Note")])
        let xml = WriterFixtures.xml(model)
        let lines = xml.components(separatedBy: "\n")
        #expect(lines.first == #"<?xml version="1.0" encoding="UTF-8" standalone="yes"?>"#)
        #expect(xml.hasSuffix("</model>"))
        #expect(lines.last == "</model>")
        #expect(!xml.contains("\r"))
    }

    @Test("a new model's header is what a current Xcode writes")
    func defaultHeader() {
        let lines = WriterFixtures.lines(EntityModel(entities: []))
        #expect(
            lines == [
                #"<?xml version="1.0" encoding="UTF-8" standalone="yes"?>"#,
                #"<model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" "#
                    + #"lastSavedToolsVersion="23788" systemVersion="24A335" "#
                    + #"minimumToolsVersion="Automatic" sourceLanguage="Swift" "#
                    + #"userDefinedModelVersionIdentifier=""/>"#,
            ])
    }

    @Test("old headers without sourceLanguage put the version identifier first")
    func oldHeaderOrder() {
        var header = ModelHeader()
        header.sourceLanguage = nil
        header.name = ""
        header.minimumToolsVersion = "Xcode 4.1"
        header.macOSVersion = "Automatic"
        header.iOSVersion = "Automatic"
        header.lastSavedToolsVersion = "1811"
        header.systemVersion = "12C60"
        let lines = WriterFixtures.lines(EntityModel(entities: [], header: header, layout: []))
        #expect(
            lines[1]
                == #"<model name="" userDefinedModelVersionIdentifier="" "#
                + #"type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" "#
                + #"lastSavedToolsVersion="1811" systemVersion="12C60" "#
                + #"minimumToolsVersion="Xcode 4.1" macOSVersion="Automatic" "#
                + #"iOSVersion="Automatic">"#)
        #expect(lines[2] == "    <elements/>")
        #expect(lines[3] == "</model>")
    }

    @Test("children are indented by 4 spaces per level")
    func indentation() {
        let lines = WriterFixtures.lines(WriterFixtures.everything())
        #expect(lines.contains { $0.hasPrefix("    <entity name=\"Person\"") })
        #expect(lines.contains { $0.hasPrefix("        <attribute name=\"age\"") })
        #expect(lines.contains { $0 == "            <userInfo>" })
        #expect(
            lines.contains { $0 == "                <entry key=\"JSONKeyPath\" value=\"e_mail\"/>" }
        )
        #expect(lines.contains { $0 == "                <constraint value=\"email\"/>" })
        #expect(lines.contains { $0 == "    </entity>" })
        for line in lines.dropFirst() {
            let indent = line.prefix { $0 == " " }.count
            #expect(indent % 4 == 0, "\(line)")
            #expect(!line.hasSuffix(" "), "\(line)")
            #expect(!line.contains("\t"), "\(line)")
        }
    }

    @Test("quotes, <, & and line breaks are escaped; > stays raw as Xcode writes it")
    func escaping() {
        var attribute = Attribute("text", type: .string)
        attribute.defaultValueString = "a \"b\" <c> & d\ne\tf\rg 'h'"
        let model = EntityModel(
            entities: [Entity("Note", attributes: [attribute])],
            fetchTemplates: [FetchTemplate("big", entity: "Note", predicate: "size > 5")])
        let xml = WriterFixtures.xml(model)
        #expect(
            xml.contains(
                #"defaultValueString="a &quot;b&quot; &lt;c> &amp; d&#10;e&#9;f&#13;g 'h'""#))
        #expect(xml.contains(#"predicateString="size > 5""#))
    }

    @Test("characters XML cannot hold are replaced, so the output stays well-formed")
    func invalidCharacters() {
        let attribute = Attribute("text", type: .string, defaultValueString: "a\u{1}b\u{FFFE}c")
        let xml = WriterFixtures.xml(
            EntityModel(entities: [Entity("Note", attributes: [attribute])]))
        #expect(xml.contains("defaultValueString=\"a\u{FFFD}b\u{FFFD}c\""))
    }

    @Test("non-ASCII text is written as UTF-8")
    func unicode() {
        let attribute = Attribute("text", type: .string, defaultValueString: "café ☕︎ 🎓")
        let data = EntityModel(entities: [Entity("Note", attributes: [attribute])]).xmlData()
        let xml = String(data: data, encoding: .utf8)
        #expect(xml?.contains(#"defaultValueString="café ☕︎ 🎓""#) == true)
    }

    // MARK: - Attribute order and flags

    @Test("entity attributes are in Xcode's order")
    func entityOrder() {
        let lines = WriterFixtures.lines(WriterFixtures.everything())
        #expect(
            lines.contains(
                #"    <entity name="Person" representedClassName=".Person" isAbstract="YES" "#
                    + #"elementID="OldPerson" versionHashModifier="v2" syncable="YES" "#
                    + #"codeGenerationType="class" futureFlag="YES">"#))
        #expect(
            lines.contains(
                #"    <entity name="Student" representedClassName="Student" "#
                    + #"parentEntity="Person" codeGenerationType="category"/>"#))
        #expect(lines.contains(#"    <entity name="Other" codeGenerationType="none"/>"#))
        #expect(lines.contains(#"    <entity name="Place" syncable="YES"/>"#))
    }

    @Test("attribute fields are in Xcode's order, flags only when set")
    func attributeOrder() {
        let lines = WriterFixtures.lines(WriterFixtures.everything())
        let expected = [
            #"        <attribute name="age" optional="YES" attributeType="Integer 16" "#
                + #"minValueString="0" maxValueString="150" defaultValueString="0" "#
                + #"usesScalarValueType="YES" indexed="YES"/>"#,
            #"        <attribute name="born" attributeType="Date" "#
                + #"minDateTimeInterval="-978285600" maxDateTimeInterval="700000000.5" "#
                + #"defaultDateTimeInterval="366809773.747109" usesScalarValueType="NO"/>"#,
            #"        <attribute name="email" optional="YES" attributeType="String" "#
                + #"spotlightIndexingEnabled="YES" "#
                + #"regularExpressionString="\A[^@]+@([^@\.]+\.)+[^@\.]+\z" "#
                + #"preserveAfterDeletion="YES" elementID="mail" versionHashModifier="x">"#,
            #"        <attribute name="photo" optional="YES" attributeType="Binary" "#
                + #"allowsExternalBinaryDataStorage="YES" storedInTruthFile="YES"/>"#,
            #"        <attribute name="tags" optional="YES" attributeType="Transformable" "#
                + #"valueTransformerName="NSSecureUnarchiveFromData" customClassName="[String]"/>"#,
            #"        <attribute name="count" optional="YES" attributeType="Integer 64" "#
                + #"derived="YES" derivationExpression="friends.@count" "#
                + #"usesScalarValueType="YES"/>"#,
            #"        <attribute name="scratch" optional="YES" transient="YES" syncable="YES" "#
                + #"alpha="2" zeta="1"/>"#,
            #"        <attribute name="place" optional="YES" attributeType="Composite" "#
                + #"composite="Location"/>"#,
        ]
        for line in expected {
            #expect(lines.contains(line), "\(line)")
        }
    }

    @Test("relationship fields are in Xcode's order, flags only when set")
    func relationshipOrder() {
        let lines = WriterFixtures.lines(WriterFixtures.everything())
        let expected = [
            #"        <relationship name="friends" optional="YES" toMany="YES" minCount="1" "#
                + #"maxCount="10" deletionRule="Cascade" ordered="YES" destinationEntity="Person" "#
                + #"inverseName="friends" inverseEntity="Person" elementID="pals" "#
                + #"versionHashModifier="h" indexed="YES" syncable="YES">"#,
            #"        <relationship name="home" transient="YES" maxCount="1" "#
                + #"deletionRule="No Action" destinationEntity="Place"/>"#,
            #"        <relationship name="weird" optional="YES" maxCount="1" "#
                + #"deletionRule="Explode" destinationEntity="Place" "#
                + #"spotlightIndexingEnabled="YES" storedInTruthFile="YES" extra="yes"/>"#,
        ]
        for line in expected {
            #expect(lines.contains(line), "\(line)")
        }
    }

    @Test("an entity's children follow Xcode's order")
    func entityChildOrder() throws {
        let lines = WriterFixtures.lines(WriterFixtures.everything())
        let start = try #require(lines.firstIndex { $0.hasPrefix("    <entity name=\"Person\"") })
        let end = try #require(lines[start...].firstIndex(of: "    </entity>"))
        let children = lines[start + 1..<end]
            .filter { $0.hasPrefix("        <") && !$0.hasPrefix("        </") }
            .map { $0.dropFirst(9).prefix { $0 != " " && $0 != ">" && $0 != "/" } }
        #expect(
            children == [
                "attribute", "attribute", "attribute", "attribute", "attribute", "attribute",
                "attribute", "attribute", "attribute", "relationship", "relationship",
                "relationship", "fetchedProperty", "fetchIndex", "uniquenessConstraints",
                "compoundIndexes", "userInfo",
            ])
    }

    @Test("the model's children follow Xcode's order and the layout block comes last")
    func modelChildOrder() {
        let lines = WriterFixtures.lines(WriterFixtures.everything())
        let children = lines.filter { $0.hasPrefix("    <") && !$0.hasPrefix("    </") }
            .map { $0.dropFirst(5).prefix { $0 != " " && $0 != ">" && $0 != "/" } }
        #expect(
            children == [
                "entity", "entity", "entity", "entity", "fetchRequest", "fetchRequest",
                "configuration", "configuration", "composite", "elements",
            ])
        let xml = WriterFixtures.xml(WriterFixtures.everything())
        #expect(
            xml.hasSuffix(
                "    <elements>\n"
                    + #"        <element name="Person" positionX="-63" positionY="-18.5" "#
                    + #"width="128" height="74"/>"# + "\n    </elements>\n</model>"))
    }

    @Test("no <elements> block unless the model has a layout")
    func layoutOnlyWhenPresent() {
        let without = WriterFixtures.xml(EntityModel(entities: [Entity("A")]))
        #expect(!without.contains("<elements"))
        let empty = WriterFixtures.xml(EntityModel(entities: [Entity("A")], layout: []))
        #expect(empty.contains("\n    <elements/>\n</model>"))
    }

    @Test("fetch requests, fetched properties, indexes and configurations are written in full")
    func modelLevelElements() {
        let xml = WriterFixtures.xml(WriterFixtures.everything())
        let expected = [
            #"    <fetchRequest name="adults" entity="Person" predicateString="age >= 18 AND "#
                + #"age &lt; 99" fetchLimit="100" fetchBatchSize="10" resultType="2" "#
                + #"includeSubentities="YES" includePropertyValues="YES" "#
                + #"includesPendingChanges="YES" returnObjectsAsFaults="YES" "#
                + #"returnDistinctResults="YES" hint="x"/>"#,
            #"    <fetchRequest name="all" entity="Place"/>"#,
            "        <fetchedProperty name=\"neighbours\" optional=\"YES\" syncable=\"YES\">\n"
                + "            <fetchRequest name=\"fetchedPropertyFetchRequest\" "
                + "entity=\"Person\" predicateString=\"home == $FETCH_SOURCE.home\"/>\n"
                + "            <userInfo>\n"
                + "                <entry key=\"k\" value=\"v\"/>\n"
                + "            </userInfo>\n"
                + "        </fetchedProperty>",
            "        <fetchIndex name=\"byAge\">\n"
                + "            <fetchIndexElement property=\"age\" type=\"Binary\" "
                + "order=\"descending\"/>\n"
                + "            <fetchIndexElement property=\"email\" type=\"Binary\" "
                + "order=\"ascending\"/>\n"
                + "        </fetchIndex>",
            "        <uniquenessConstraints>\n"
                + "            <uniquenessConstraint>\n"
                + "                <constraint value=\"email\"/>\n"
                + "                <constraint value=\"age\"/>\n"
                + "            </uniquenessConstraint>\n"
                + "            <uniquenessConstraint>\n"
                + "                <constraint value=\"born\"/>\n"
                + "            </uniquenessConstraint>\n"
                + "        </uniquenessConstraints>",
            "        <compoundIndexes>\n"
                + "            <compoundIndex>\n"
                + "                <index value=\"age\"/>\n"
                + "                <index value=\"email\"/>\n"
                + "            </compoundIndex>\n"
                + "        </compoundIndexes>",
            "        <userInfo>\n"
                + "            <entry key=\"key with.dots\" "
                + "value=\"say &quot;hi&quot; &lt;there> &amp; bye\"/>\n"
                + "        </userInfo>",
            "    <configuration name=\"Cloud\" usedWithCloudKit=\"YES\">\n"
                + "        <memberEntity name=\"Person\"/>\n"
                + "        <memberEntity name=\"Place\"/>\n"
                + "    </configuration>\n"
                + "    <configuration name=\"Empty\"/>",
            "    <composite name=\"Location\">\n"
                + "        <attribute name=\"latitude\" optional=\"YES\" attributeType=\"Double\"/>\n"
                + "        <attribute name=\"longitude\" optional=\"YES\" attributeType=\"Double\"/>\n"
                + "    </composite>",
        ]
        for fragment in expected {
            #expect(xml.contains(fragment), "\(fragment)")
        }
    }

    @Test("header flags are written as stored, unknown header attributes come last")
    func headerAsStored() {
        let lines = WriterFixtures.lines(WriterFixtures.everything())
        #expect(
            lines[1]
                == #"<model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" "#
                + #"lastSavedToolsVersion="23788" systemVersion="24A335" "#
                + #"minimumToolsVersion="Automatic" sourceLanguage="Swift" "#
                + #"usedWithCloudKit="true" usedWithSwiftData="YES" "#
                + #"userDefinedModelVersionIdentifier="1.0 Beta" zz="1">"#)
    }

    @Test("unknown attributes never duplicate known ones or break the XML")
    func unknownAttributesAreSafe() {
        var entity = Entity("A")
        entity.unknownXMLAttributes = ["name": "B", "bad name": "x", "1st": "y", "ok-name": "z"]
        let lines = WriterFixtures.lines(EntityModel(entities: [entity]))
        #expect(lines[2] == #"    <entity name="A" ok-name="z"/>"#)
    }

    @Test("dates are written so they read back as the same Double")
    func dateIntervals() throws {
        let values: [Double] = [
            0, -978_285_600, -63_079_570_688, 727_315_260, 366_809_773.747109, 0.1, 1e-7,
            123_456_789.123_456_78, -0.5, 1e20, 1_152_921_504_606_846_976,
        ]
        for value in values {
            var attribute = Attribute("d", type: .date)
            attribute.defaultDateTimeInterval = value
            let xml = WriterFixtures.xml(
                EntityModel(entities: [Entity("A", attributes: [attribute])]))
            let text = try #require(
                xml.components(separatedBy: #"defaultDateTimeInterval=""#).last?
                    .prefix { $0 != "\"" })
            #expect(Double(String(text)) == value, "\(value) written as \(text)")
            if value.rounded() == value && abs(value) < 1e15 {
                #expect(!text.contains("."), "\(text)")
                #expect(!text.contains("e"), "\(text)")
            }
        }
    }

    // MARK: - Files

    @Test("writing to a .xcdatamodeld makes a bundle with .xccurrentversion")
    func writesBundle() throws {
        try WriterFixtures.withTemporaryFolder { folder in
            let model = EntityModel(entities: [Entity("A")])
            let bundle = folder.appendingPathComponent("Nested/Shop.xcdatamodeld")
            try model.write(to: bundle)
            let contents = bundle.appendingPathComponent("Shop.xcdatamodel/contents")
            #expect(try Data(contentsOf: contents) == model.xmlData())
            let current = try String(
                contentsOf: bundle.appendingPathComponent(".xccurrentversion"), encoding: .utf8)
            #expect(
                current == """
                    <?xml version="1.0" encoding="UTF-8"?>
                    <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
                    <plist version="1.0">
                    <dict>
                    \t<key>_XCCurrentVersionName</key>
                    \t<string>Shop.xcdatamodel</string>
                    </dict>
                    </plist>

                    """)
            // Writing again replaces the files.
            let bigger = EntityModel(entities: [Entity("A"), Entity("B")])
            try bigger.write(to: bundle)
            #expect(try Data(contentsOf: contents) == bigger.xmlData())
        }
    }

    @Test("writing to a .xcdatamodel makes the folder and its contents file")
    func writesVersionFolder() throws {
        try WriterFixtures.withTemporaryFolder { folder in
            let model = EntityModel(entities: [Entity("A")])
            let version = folder.appendingPathComponent("Shop 2.xcdatamodel")
            try model.write(to: version)
            let written = try Data(contentsOf: version.appendingPathComponent("contents"))
            #expect(written == model.xmlData())
            let names = try FileManager.default.contentsOfDirectory(atPath: version.path)
            #expect(names == ["contents"])
        }
    }

    @Test("writing to any other path writes that file")
    func writesPlainFile() throws {
        try WriterFixtures.withTemporaryFolder { folder in
            let model = EntityModel(entities: [Entity("A")])
            let file = folder.appendingPathComponent("model.xml")
            try model.write(to: file)
            #expect(try Data(contentsOf: file) == model.xmlData())
        }
    }

    @Test("a write that cannot happen throws an error naming the path")
    func writeFailure() throws {
        try WriterFixtures.withTemporaryFolder { folder in
            let blocker = folder.appendingPathComponent("Blocked.xcdatamodeld")
            try Data("not a folder".utf8).write(to: blocker)
            let model = EntityModel(entities: [Entity("A")])
            let error = try #require(throws: ModelWriteError.self) { try model.write(to: blocker) }
            #expect(error.path.hasSuffix("Blocked.xcdatamodeld"))
            #expect(error.description.contains("error:"))
            let folderInTheWay = folder.appendingPathComponent("dir.xml")
            try FileManager.default.createDirectory(
                at: folderInTheWay, withIntermediateDirectories: false)
            #expect(throws: ModelWriteError.self) { try model.write(to: folderInTheWay) }
        }
    }

    // MARK: - Round trips (need the loader)

    @Test("a model built in code reads back equal")
    func builtModelRoundTrip() throws {
        let model = WriterFixtures.everything()
        let loaded = try EntityModel(xmlData: model.xmlData(), file: "everything")
        #expect(loaded.entities == model.entities)
        #expect(loaded.fetchTemplates == model.fetchTemplates)
        #expect(loaded.configurations == model.configurations)
        #expect(loaded.composites == model.composites)
        #expect(loaded.header == model.header)
        #expect(loaded.layout == model.layout)
        #expect(loaded == model)
        #expect(loaded.xmlData() == model.xmlData())
    }

    @Test("a bundle written to disk loads back equal")
    func bundleRoundTrip() throws {
        try WriterFixtures.withTemporaryFolder { folder in
            let model = WriterFixtures.everything()
            let bundle = folder.appendingPathComponent("Everything.xcdatamodeld")
            try model.write(to: bundle)
            #expect(try EntityModel(contentsOf: bundle) == model)
            let version = folder.appendingPathComponent("Plain.xcdatamodel")
            try model.write(to: version)
            #expect(try EntityModel(contentsOf: version) == model)
        }
    }

    @Test(
        "every corpus file loads, writes and loads back equal",
        .enabled(if: TestSupport.hasCorpus))
    func corpusRoundTrip() throws {
        let corpus = try #require(WriterFixtures.corpus)
        let files = TestSupport.contentsFiles(below: corpus)
        #expect(files.count >= 80)
        var identical = 0
        for file in files {
            let original = try Data(contentsOf: file)
            let model = try EntityModel(xmlData: original, file: file.path)
            let written = model.xmlData()
            let reloaded = try EntityModel(xmlData: written, file: file.path)
            #expect(reloaded == model, "\(file.path)")
            #expect(reloaded.xmlData() == written, "\(file.path)")
            if written == original { identical += 1 }
        }
        // All 88 files of the shared corpus come back byte for byte. Files edited by other tools
        // (a final newline, `&gt;` for `>`) cannot, so the bar is 90%.
        #expect(identical * 10 >= files.count * 9, "\(identical) of \(files.count) identical")
    }

    // MARK: - Sample models

    @Test("the sample models load and are written back byte for byte")
    func sampleModels() throws {
        let versions = [
            "School.xcdatamodeld/School.xcdatamodel",
            "Library.xcdatamodeld/Library.xcdatamodel",
            "Library.xcdatamodeld/Library 2.xcdatamodel",
        ]
        for name in versions {
            let file = TestSupport.models.appendingPathComponent(name + "/contents")
            let original = try Data(contentsOf: file)
            let model = try EntityModel(xmlData: original, file: file.path)
            #expect(model.loadDiagnostics.isEmpty, "\(name): \(model.loadDiagnostics)")
            #expect(model.xmlData() == original, "\(name)")
        }
        for (bundle, current) in [
            ("School", "School.xcdatamodel"), ("Library", "Library 2.xcdatamodel"),
        ] {
            let file = TestSupport.models.appendingPathComponent(
                bundle + ".xcdatamodeld/.xccurrentversion")
            #expect(
                try Data(contentsOf: file) == ModelFileTarget.currentVersionPlist(naming: current))
        }
    }

    @Test("School uses every attribute type and delete rule, with inverses everywhere")
    func schoolCoverage() throws {
        let school = try EntityModel(
            contentsOf: TestSupport.models.appendingPathComponent("School.xcdatamodeld"))
        let attributes = school.entities.flatMap(\.attributes)
        let types = Set(attributes.map(\.type.description))
        let expectedTypes: Set<String> = [
            "Integer 16", "Integer 32", "Integer 64", "Decimal", "Double", "Float", "String",
            "Boolean", "Date", "Binary", "UUID", "URI", "Transformable",
        ]
        #expect(types == expectedTypes)
        let relationships = school.entities.flatMap(\.relationships)
        #expect(Set(relationships.map(\.deleteRule)) == Set(DeleteRule.allCases))
        #expect(relationships.allSatisfy { $0.inverseName != nil })
        #expect(relationships.contains { $0.isToMany && $0.isOrdered })
        #expect(school.configurations.map(\.name) == ["Archive", "Campus"])
        #expect(
            school.fetchTemplate(named: "PeopleByNamePrefix")?.predicateString?.contains("$PREFIX")
                == true)
        let student = try #require(school.entity(named: "Student"))
        #expect(student.uniquenessConstraints == [["studentNumber"]])
        #expect(!student.fetchIndexes.isEmpty)
        #expect(school.entity(named: "Person")?.isAbstract == true)
        #expect(attributes.contains { $0.isIndexed })
    }

    @Test("Library's current version is Library 2, which renames an attribute")
    func libraryVersions() throws {
        let bundle = TestSupport.models.appendingPathComponent("Library.xcdatamodeld")
        let current = try EntityModel(contentsOf: bundle)
        let first = try EntityModel(contentsOf: bundle, version: "Library")
        #expect(current.entity(named: "Genre") != nil)
        #expect(first.entity(named: "Genre") == nil)
        let book = try #require(current.entity(named: "Book"))
        #expect(book.attribute(named: "publicationDate")?.renamingIdentifier == "published")
        #expect(first.entity(named: "Book")?.attribute(named: "published") != nil)
        #expect(book.attributes.count == (first.entity(named: "Book")?.attributes.count ?? 0) + 1)
    }
}
