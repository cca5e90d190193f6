import Foundation
import Testing

@testable import ObjectGraph

@Suite("SQLite layout errors")
struct LayoutErrorTests {
    static func error(_ entities: [Entity]) -> StoreLayoutError? {
        do {
            _ = try StoreLayout(model: EntityModel(entities: entities))
            return nil
        } catch {
            return error
        }
    }

    @Test("an inconsistent model is a typed error naming the entity and property")
    func inconsistentModels() throws {
        let missingParent = try #require(Self.error([Entity("Child", parent: "Nobody")]))
        #expect(missingParent.kind == .invalidInheritance)
        #expect(missingParent.entity == "Child")

        let cycle = try #require(
            Self.error([Entity("A", parent: "B"), Entity("B", parent: "A")]))
        #expect(cycle.kind == .invalidInheritance)

        let duplicate = try #require(Self.error([Entity("A"), Entity("A")]))
        #expect(duplicate.kind == .duplicateEntity)

        let noDestination = try #require(
            Self.error([Entity("A", relationships: [Relationship("b", destination: "B")])]))
        #expect(noDestination.kind == .missingEntityOrProperty)
        #expect(noDestination.property == "b")
        #expect(noDestination.description.hasPrefix("A.b: "))

        let noInverse = try #require(
            Self.error([
                Entity("A", relationships: [Relationship("b", destination: "B", inverse: "a")]),
                Entity("B"),
            ]))
        #expect(noInverse.kind == .missingEntityOrProperty)

        let composite = try #require(
            Self.error([Entity("A", attributes: [Attribute("place", type: .composite)])]))
        #expect(composite.kind == .unsupportedAttributeType)

        let unknownType = try #require(
            Self.error([Entity("A", attributes: [Attribute("x", type: .unknown("Blob 2"))])]))
        #expect(unknownType.kind == .unsupportedAttributeType)

        var constrained = Entity("A", attributes: [Attribute("x", type: .string)])
        constrained.uniquenessConstraints = [["y"]]
        let badConstraint = try #require(Self.error([constrained]))
        #expect(badConstraint.kind == .invalidIndex)
        #expect(badConstraint.property == "y")

        let clash = try #require(Self.error([Entity("Item"), Entity("ITEM")]))
        #expect(clash.kind == .tableNameCollision)

        let reserved = try #require(Self.error([Entity("_METADATA")]))
        #expect(reserved.kind == .tableNameCollision)
    }
}
