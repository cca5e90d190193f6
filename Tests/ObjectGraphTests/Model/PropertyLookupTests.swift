import Foundation
import Testing

@testable import ObjectGraph

@Suite("Property lookup")
struct PropertyLookupTests {
    @Test("names are found by literal, by text built at run time, short or long; others throw")
    func positions() throws {
        let longName = "aPropertyNameLongerThanFifteenBytes"
        let entity = Entity(
            "Thing",
            attributes: [
                Attribute("id", type: .integer64), Attribute("name", type: .string),
                Attribute("team", type: .string), Attribute(longName, type: .string),
                Attribute("naïve", type: .string),
            ])
        let schema = ModelSchema(model: EntityModel(entities: [entity]))
        let thing = try schema.requireEntity(named: "Thing")
        #expect(try thing.position(of: "id") == 0)
        #expect(try thing.position(of: "name") == 1)
        #expect(try thing.position(of: "team") == 2)
        // The same text in other storage: found by comparing text.
        let built = String(["n", "a", "m", "e"])
        #expect(try thing.position(of: built) == 1)
        let long = String(longName.reversed().reversed())
        #expect(try thing.position(of: long) == 3)
        #expect(try thing.position(of: "naïve") == 4)
        #expect(throws: ObjectGraphError.self) { try thing.position(of: "nam") }
        #expect(throws: ObjectGraphError.self) { try thing.position(of: "") }
    }

    @Test("a name in another Unicode form is found in small and large entities alike")
    func canonicallyEquivalentNames() throws {
        let many = (0..<30).map { Attribute("p\($0)", type: .string) }
        let small = Entity("Small", attributes: [Attribute("caf\u{E9}", type: .string)])
        let large = Entity("Large", attributes: many + [Attribute("caf\u{E9}", type: .string)])
        let schema = ModelSchema(model: EntityModel(entities: [small, large]))
        let decomposed = "cafe\u{301}"
        #expect(try schema.requireEntity(named: "Small").position(of: decomposed) == 0)
        #expect(try schema.requireEntity(named: "Large").position(of: decomposed) == 30)
        #expect(throws: ObjectGraphError.self) {
            try schema.requireEntity(named: "Small").position(of: "cafe")
        }
    }
}
