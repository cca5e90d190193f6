import Foundation
import ObjectGraph
import Testing

/// A typed property keeps its position per entity schema (the first schema it meets inline,
/// others beside it): each schema must get its own, whichever met it first, for entities,
/// their subentities and entities of other models alike.
@Suite("Typed property positions")
struct TypedPositionCacheTests {
    /// Constants of their own, so that no other test's schemas are in their caches.
    private enum Properties {
        static let label = TypedAttribute("label")
        static let labelProperty = TypedProperty("label")
        static let extra = TypedAttribute("extra")
    }

    /// A model where "label" sits after `padding` attributes in "Thing" (and so in its
    /// subentity "Special", which adds "extra"), and after `padding + 2` in "Other".
    private static func model(padding: Int) -> EntityModel {
        let pads = (0..<padding).map { Attribute("pad\($0)", type: .string) }
        let label = Attribute("label", type: .string)
        return EntityModel(entities: [
            Entity("Thing", attributes: pads + [label]),
            Entity(
                "Special", parent: "Thing",
                attributes: [Attribute("extra", type: .integer64)]),
            Entity(
                "Other",
                attributes: pads + [
                    Attribute("first", type: .string), Attribute("second", type: .string),
                    label,
                ]),
            Entity("Bare", attributes: [Attribute("title", type: .string)]),
        ])
    }

    @Test("one typed attribute read and written on entities, subentities and other models")
    func manySchemas() throws {
        var objects: [ManagedObject] = []
        var contexts: [ManagedContext] = []
        for padding in 0..<4 {
            let coordinator = StoreCoordinator(model: Self.model(padding: padding))
            try coordinator.addStore()
            let context = ManagedContext(
                coordinator: coordinator, classes: ManagedObjectClasses())
            contexts.append(context)
            for entity in ["Special", "Thing", "Other"] {
                objects.append(try context.insert(entity))
            }
        }
        for round in 0..<3 {
            for (index, object) in objects.enumerated() {
                object.setAttributeValue("\(index) \(round)", Properties.label)
            }
            for (index, object) in objects.enumerated() {
                let label: String? = object.attributeValue(Properties.label)
                let viaProperty: String? = object.attributeValue(Properties.labelProperty)
                #expect(label == "\(index) \(round)" && viaProperty == label)
                #expect(object["label"] == .string("\(index) \(round)"))
                for name in ["pad0", "first", "second"]
                where object.entity.attribute(named: name) != nil {
                    #expect(object[name] == .null)
                }
            }
        }
        let special = try #require(objects.first { $0.entity.name == "Special" })
        special.setAttributeValue(Int64(7), Properties.extra)
        #expect(special.attributeValue(Properties.extra) == Int64(7))
        #expect(special["extra"] == .integer(7))
        // An entity without the attribute reads nothing, whichever schemas came before.
        let bare = try contexts[0].insert("Bare")
        let missing: String? = bare.attributeValue(Properties.label)
        #expect(missing == nil && bare.attributeValue(Properties.extra) == Int64?.none)
    }
}
