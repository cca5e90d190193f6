import Foundation
import ObjectGraph
import Testing

/// Shapes Xcode compiles with only a warning are warnings here too, and such a model still gets
/// a store: a model Xcode compiles validates with 0 errors (issue 20, models).
@Suite("Models Xcode compiles with warnings")
struct XcodeWarningModelTests {
    /// A library model as Xcode would save it, with an asymmetric inverse pair (`Shelf.books`
    /// names `Book.shelf`, whose inverse is `Shelf.formerBooks`), a fetch index naming a to-many
    /// relationship alone, one mixing it with an attribute, and a compound index likewise.
    static let xml = """
        <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
        <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" lastSavedToolsVersion="23231" systemVersion="24A335" minimumToolsVersion="Automatic" sourceLanguage="Swift" userDefinedModelVersionIdentifier="">
            <entity name="Shelf" representedClassName="Shelf" syncable="YES">
                <attribute name="label" optional="YES" attributeType="String"/>
                <relationship name="books" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Book" inverseName="shelf" inverseEntity="Book"/>
                <relationship name="formerBooks" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Book" inverseName="shelf" inverseEntity="Book"/>
                <fetchIndex name="byBooks">
                    <fetchIndexElement property="books" type="Binary" order="ascending"/>
                </fetchIndex>
                <fetchIndex name="byLabelAndBooks">
                    <fetchIndexElement property="label" type="Binary" order="ascending"/>
                    <fetchIndexElement property="books" type="Binary" order="ascending"/>
                </fetchIndex>
                <compoundIndexes>
                    <compoundIndex>
                        <index value="books"/>
                        <index value="label"/>
                    </compoundIndex>
                </compoundIndexes>
            </entity>
            <entity name="Book" representedClassName="Book" syncable="YES">
                <attribute name="title" optional="YES" attributeType="String"/>
                <relationship name="shelf" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Shelf" inverseName="formerBooks" inverseEntity="Shelf"/>
            </entity>
        </model>
        """

    static func model() throws -> EntityModel {
        try EntityModel(xmlData: Data(xml.utf8), file: "Library/contents")
    }

    @Test("an asymmetric inverse and indexes naming a to-many give warnings, no errors")
    func onlyWarnings() throws {
        let diagnostics = try Self.model().validate()
        let errors = diagnostics.filter { $0.severity == .error }
        #expect(errors.isEmpty, "\(errors.map(\.description))")
        let asymmetric = diagnostics.filter { $0.ruleID == "asymmetric-inverse" }
        #expect(asymmetric.map(\.property) == ["books"])
        #expect(
            asymmetric.first?.description
                == "Library/contents:5:9: warning: relationship 'Shelf.books' has inverse "
                + "'Book.shelf', whose inverse is 'formerBooks' instead of 'books'; the two sides "
                + "are not kept in step, so a change made through one can leave the other stale "
                + "[asymmetric-inverse]")
        let indexes = diagnostics.filter { $0.ruleID == "invalid-index-property" }
        #expect(indexes.count == 3)
        #expect(indexes.allSatisfy { $0.severity == .warning && $0.property == "books" })
        #expect(
            indexes.map(\.message).contains(
                "fetch index 'byBooks' of entity 'Shelf' names 'books', which is a to-many "
                    + "relationship; only stored attributes and to-one relationships can be "
                    + "indexed, so the index leaves it out"))
    }

    @Test("the store layout leaves the to-many out of each index instead of refusing the model")
    func layoutLeavesToManyOut() throws {
        let layout = try StoreLayout(model: Self.model())
        let shelfIndexes = layout.indexes.filter { $0.table == "ZSHELF" }
        let byName = Dictionary(
            shelfIndexes.map { ($0.name, $0.elements.map(\.column)) },
            uniquingKeysWith: { a, _ in a })
        #expect(byName["Z_Shelf_byBooks"] == nil)
        #expect(byName["Z_Shelf_byLabelAndBooks"] == ["ZLABEL"])
        #expect(byName["Z_Shelf_compoundIndex"] == ["ZLABEL"])
    }

    @Test("an index naming no property at all is still refused by the store")
    func unknownIndexPropertyStillRefused() throws {
        var entity = Entity("E", attributes: [Attribute("x", type: .string)])
        entity.fetchIndexes = [FetchIndex("byGhost", elements: [.init(property: "ghost")])]
        #expect(throws: StoreLayoutError.self) {
            _ = try StoreLayout(model: EntityModel(entities: [entity]))
        }
    }
}
