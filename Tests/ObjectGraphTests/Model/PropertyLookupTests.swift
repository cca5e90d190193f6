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
}
