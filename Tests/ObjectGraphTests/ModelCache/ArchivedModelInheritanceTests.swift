import Foundation
import KeyedArchive
import ObjectGraph
import Testing

/// Hand-made model archives with inheritance, as knowledgeC's cache holds it: an abstract root
/// entity with no superentity (`NSSuperentity` is `$null`) and children naming it. The root
/// must count as part of the model; a superentity that `NSEntities` does not list is still
/// refused.
struct ArchivedModelInheritanceTests {
    /// `Object` (abstract, no superentity) with children `Category` and `Event`; when
    /// `listsRoot` is false, `NSEntities` leaves `Object` out.
    static func archive(listsRoot: Bool = true) -> Data {
        var builder = KeyedArchiveBuilder()
        let rootName = builder.add(.string("Object"))
        let root = builder.addObject(
            className: "NSEntityDescription",
            fields: [
                "NSEntityName": rootName, "NSIsAbstract": .bool(true),
                "NSSuperentity": KeyedArchiveBuilder.null,
            ])
        var entries = listsRoot ? [(key: rootName, value: root)] : []
        for name in ["Category", "Event"] {
            let childName = builder.add(.string(name))
            let child = builder.addObject(
                className: "NSEntityDescription",
                fields: ["NSEntityName": childName, "NSSuperentity": root])
            entries.append((key: childName, value: child))
        }
        let model = builder.addObject(
            className: "NSManagedObjectModel",
            fields: ["NSEntities": builder.addDictionary(entries)])
        return builder.archive(root: model)
    }

    @Test func childrenOfARootEntityDecode() throws {
        let model = try EntityModel(modelArchive: Self.archive(), source: "knowledgeC.db")
        #expect(model.entities.map(\.name) == ["Category", "Event", "Object"])
        let root = try #require(model.entity(named: "Object"))
        #expect(root.parentName == nil && root.isAbstract)
        #expect(model.entity(named: "Category")?.parentName == "Object")
        #expect(model.entity(named: "Event")?.parentName == "Object")
        #expect(model.entityVersionHashes.count == 3)
    }

    @Test func aSuperentityTheModelLacksIsRefused() throws {
        do {
            _ = try EntityModel(
                modelArchive: Self.archive(listsRoot: false), source: "knowledgeC.db")
            Issue.record("a superentity missing from NSEntities was accepted")
        } catch {
            #expect(error.description.contains("inherits from \"Object\", which the model lacks"))
        }
    }
}
