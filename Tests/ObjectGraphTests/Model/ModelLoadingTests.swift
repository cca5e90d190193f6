import Foundation
import Testing

@testable import ObjectGraph

@Suite("Loading Xcode model XML")
struct ModelLoadingTests {
    static let header =
        #"<?xml version="1.0" encoding="UTF-8" standalone="yes"?>"# + "\n"
        + #"<model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" "#
        + #"lastSavedToolsVersion="22758" systemVersion="23E224" minimumToolsVersion="Automatic" "#
        + #"sourceLanguage="Swift" userDefinedModelVersionIdentifier="">"#

    static func model(_ body: String) throws -> EntityModel {
        try EntityModel(xmlData: Data((header + "\n" + body + "\n</model>").utf8), file: "test.xml")
    }

    @Test("every entity, attribute and relationship field is read")
    func readsEverything() throws {
        let model = try Self.model(
            #"""
                <entity name="Person" representedClassName=".Person" isAbstract="YES" elementID="OldPerson" versionHashModifier="v2" syncable="YES" codeGenerationType="class">
                    <attribute name="age" optional="YES" attributeType="Integer 16" minValueString="0" maxValueString="150" defaultValueString="0.0" usesScalarValueType="YES" indexed="YES"/>
                    <attribute name="born" attributeType="Date" minDateTimeInterval="-978285600" maxDateTimeInterval="700000000.5" defaultDateTimeInterval="12.25" defaultValueString="January 1, 2010" usesScalarValueType="NO"/>
                    <attribute name="email" optional="YES" attributeType="String" regularExpressionString="[^@]+@[^@]+" spotlightIndexingEnabled="YES" preserveAfterDeletion="YES" elementID="mail" versionHashModifier="x"/>
                    <attribute name="photo" optional="YES" attributeType="Binary" allowsExternalBinaryDataStorage="YES" storedInTruthFile="YES"/>
                    <attribute name="tags" optional="YES" attributeType="Transformable" valueTransformerName="NSSecureUnarchiveFromData" customClassName="[String]"/>
                    <attribute name="count" optional="YES" attributeType="Integer 64" derived="YES" derivationExpression="friends.@count" usesScalarValueType="YES"/>
                    <attribute name="scratch" optional="YES" transient="YES"/>
                    <relationship name="friends" optional="YES" toMany="YES" minCount="1" maxCount="10" deletionRule="Cascade" ordered="YES" destinationEntity="Person" inverseName="friends" inverseEntity="Person" indexed="YES"/>
                    <relationship name="home" maxCount="1" deletionRule="No Action" destinationEntity="Place" transient="YES"/>
                    <fetchedProperty name="neighbours" optional="YES">
                        <fetchRequest name="fetchedPropertyFetchRequest" entity="Person" predicateString="home == $FETCH_SOURCE.home"/>
                    </fetchedProperty>
                    <fetchIndex name="byAge">
                        <fetchIndexElement property="age" type="Binary" order="descending"/>
                    </fetchIndex>
                    <uniquenessConstraints>
                        <uniquenessConstraint>
                            <constraint value="email"/>
                            <constraint value="age"/>
                        </uniquenessConstraint>
                    </uniquenessConstraints>
                    <compoundIndexes>
                        <compoundIndex>
                            <index value="age"/>
                            <index value="email"/>
                        </compoundIndex>
                    </compoundIndexes>
                    <userInfo>
                        <entry key="key with.dots" value="say &quot;hi&quot; &lt;&gt;"/>
                    </userInfo>
                </entity>
                <entity name="Place" syncable="YES"/>
                <fetchRequest name="adults" entity="Person" predicateString="age &gt;= 18" fetchLimit="100" fetchBatchSize="10" resultType="2" includeSubentities="YES" includePropertyValues="YES" includesPendingChanges="YES" returnObjectsAsFaults="YES" returnDistinctResults="YES"/>
                <configuration name="Cloud" usedWithCloudKit="YES">
                    <memberEntity name="Person"/>
                </configuration>
                <configuration name="Empty"/>
                <elements>
                    <element name="Person" positionX="-63" positionY="-18" width="128" height="44"/>
                </elements>
            """#)
        let person = try #require(model.entity(named: "Person"))
        #expect(person.className == ".Person")
        #expect(person.isAbstract && person.isSyncable)
        #expect(person.renamingIdentifier == "OldPerson")
        #expect(person.versionHashModifier == "v2")
        #expect(person.codeGeneration == .classDefinition)
        let age = try #require(person.attribute(named: "age"))
        #expect(age.type == .integer16 && age.isOptional && age.isIndexed)
        #expect(age.minValueString == "0" && age.maxValueString == "150")
        #expect(age.defaultValueString == "0.0" && age.usesScalarValueType == true)
        let born = try #require(person.attribute(named: "born"))
        #expect(!born.isOptional && born.usesScalarValueType == false)
        #expect(
            born.minDateTimeInterval == -978_285_600 && born.maxDateTimeInterval == 700_000_000.5)
        #expect(born.defaultDateTimeInterval == 12.25)
        let email = try #require(person.attribute(named: "email"))
        #expect(email.regularExpression == "[^@]+@[^@]+")
        #expect(email.isIndexedBySpotlight && email.preservesValueInHistoryOnDeletion)
        #expect(email.renamingIdentifier == "mail" && email.versionHashModifier == "x")
        let photo = try #require(person.attribute(named: "photo"))
        #expect(photo.allowsExternalBinaryDataStorage && photo.isStoredInExternalRecord)
        let tags = try #require(person.attribute(named: "tags"))
        #expect(tags.valueTransformerName == "NSSecureUnarchiveFromData")
        #expect(tags.customClassName == "[String]")
        let count = try #require(person.attribute(named: "count"))
        #expect(count.isDerived && count.derivationExpression == "friends.@count")
        let scratch = try #require(person.attribute(named: "scratch"))
        #expect(scratch.type == .undefined && scratch.isTransient)

        let friends = try #require(person.relationship(named: "friends"))
        #expect(friends.isToMany && friends.isOrdered && friends.isIndexed)
        #expect(friends.minCount == 1 && friends.maxCount == 10)
        #expect(friends.deleteRule == .cascade)
        #expect(friends.inverseName == "friends" && friends.inverseEntityName == "Person")
        let home = try #require(person.relationship(named: "home"))
        #expect(!home.isOptional && home.isTransient && home.deleteRule == .noAction)
        #expect(home.inverseName == nil && home.maxCount == 1)

        let neighbours = try #require(person.fetchedProperties.first)
        #expect(neighbours.fetchRequest.predicateString == "home == $FETCH_SOURCE.home")
        #expect(person.fetchIndexes.first?.elements.first?.isAscending == false)
        #expect(person.uniquenessConstraints == [["email", "age"]])
        #expect(person.compoundIndexes == [["age", "email"]])
        #expect(person.userInfo["key with.dots"] == #"say "hi" <>"#)

        let adults = try #require(model.fetchTemplate(named: "adults"))
        #expect(adults.predicateString == "age >= 18")
        #expect(adults.fetchLimit == 100 && adults.fetchBatchSize == 10 && adults.resultType == 2)
        #expect(adults.includesSubentities && adults.includesPropertyValues)
        #expect(adults.includesPendingChanges && adults.returnsObjectsAsFaults)
        #expect(adults.returnsDistinctResults)
        #expect(model.configuration(named: "Cloud")?.entityNames == ["Person"])
        #expect(model.configuration(named: "Cloud")?.isUsedWithCloudKit == true)
        #expect(model.configuration(named: "Empty")?.entityNames == [])
        #expect(model.layout?.first?.positionX == "-63")
        #expect(model.header.lastSavedToolsVersion == "22758")
        #expect(model.versionIdentifier == "")
        #expect(model.loadDiagnostics.isEmpty)
    }

    @Test("elements carry their file, line and column")
    func locations() throws {
        let model = try Self.model(
            """
                <entity name="A" syncable="YES">
                    <attribute name="x" optional="YES" attributeType="String"/>
                </entity>
            """)
        let entity = try #require(model.entity(named: "A"))
        #expect(entity.location?.line == 3)
        #expect(entity.location?.column == 5)
        #expect(entity.location?.file == "test.xml")
        #expect(entity.attributes.first?.location?.line == 4)
        #expect(entity.attributes.first?.location?.column == 9)
    }

    @Test("unknown attributes are kept and unknown elements skipped, each with a warning")
    func unknownThingsWarn() throws {
        let model = try Self.model(
            """
                <entity name="A" futureFlag="YES">
                    <attribute name="x" attributeType="String" allowsCloudEncryption="YES"/>
                    <sparkle/>
                </entity>
                <mystery/>
            """)
        let entity = try #require(model.entity(named: "A"))
        #expect(entity.unknownXMLAttributes == ["futureFlag": "YES"])
        #expect(entity.attributes.first?.unknownXMLAttributes == ["allowsCloudEncryption": "YES"])
        let rules = model.loadDiagnostics.map(\.ruleID)
        #expect(rules.filter { $0 == "unknown-attribute" }.count == 2)
        #expect(rules.filter { $0 == "unknown-element" }.count == 2)
        #expect(model.loadDiagnostics.allSatisfy { $0.severity == .warning })
        #expect(model.loadDiagnostics.allSatisfy { $0.location?.line ?? 0 > 0 })
    }

    @Test("attribute types: every Xcode spelling, a missing one, and an unknown one")
    func attributeTypes() throws {
        let spellings = [
            "Integer 16", "Integer 32", "Integer 64", "Decimal", "Double", "Float", "String",
            "Boolean", "Date", "Binary", "UUID", "URI", "Transformable",
        ]
        var body = #"    <entity name="T">"# + "\n"
        for (index, spelling) in spellings.enumerated() {
            body += #"        <attribute name="a\#(index)" attributeType="\#(spelling)"/>"# + "\n"
        }
        body += #"        <attribute name="none" transient="YES"/>"# + "\n"
        body += #"        <attribute name="odd" attributeType="string"/>"# + "\n"
        body += "    </entity>"
        let entity = try #require(try Self.model(body).entity(named: "T"))
        let types = entity.attributes.map(\.type)
        #expect(types.prefix(spellings.count).map(\.xmlName) == spellings)
        #expect(entity.attribute(named: "none")?.type == .undefined)
        #expect(entity.attribute(named: "odd")?.type == .unknown("string"))
        #expect(Set(types.map(\.coreDataCode)).count == spellings.count + 1)
    }
}
