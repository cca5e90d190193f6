import Foundation
import ObjectGraph
import Testing

/// The dry-run lines of mapping models that were not inferred, and of whole model changes.
@Suite("Mapping model change descriptions")
struct InferenceDescriptionTests {
    typealias F = InferenceFixtures

    @Test("a read mapping model lists each entity mapping and each property mapping's expression")
    func readMapping() throws {
        let person = F.entity("Person", [F.attribute("name", .string)])
        let newPerson = F.entity("Person", [F.attribute("fullName", .string)])
        let mapping = MappingModel(
            sourceModel: EntityModel(entities: [person]),
            destinationModel: EntityModel(entities: [newPerson]),
            entityMappings: [
                EntityMapping(
                    name: "PersonToPerson", kind: .custom, sourceEntityName: "Person",
                    destinationEntityName: "Person",
                    filterPredicate: try Predicate(format: "name != nil"),
                    attributeMappings: [
                        PropertyMapping(
                            name: "fullName",
                            valueExpression: try Expression(
                                format: "FUNCTION($source.name, 'uppercaseString')")),
                        PropertyMapping(name: "nickname"),
                    ],
                    migrationPolicyClassName: "PersonPolicy"),
                EntityMapping(name: "Pet", kind: .add, destinationEntityName: "Pet"),
                EntityMapping(name: "Toy", kind: .remove, sourceEntityName: "Toy"),
            ])
        let lines = mapping.changeDescriptions
        #expect(lines.count == 5)
        #expect(lines[0].hasPrefix("PersonToPerson: custom Person → Person where "))
        #expect(lines[0].hasSuffix(" (policy PersonPolicy)"))
        #expect(lines[1].hasPrefix("PersonToPerson.fullName = FUNCTION($source.name"))
        #expect(lines[2] == "PersonToPerson.nickname = (default value)")
        #expect(lines[3] == "Pet: add entity Pet")
        #expect(lines[4] == "Toy: remove entity Toy")
    }

    @Test("several changes in one model are listed entity by entity")
    func severalChanges() throws {
        let person = F.entity(
            "Person", [F.attribute("name", .string), F.attribute("age", .integer16)],
            [Relationship("pets", destination: "Dog", toMany: true)])
        let dog = F.entity("Dog", [F.attribute("name", .string)])
        let newPerson = F.entity(
            "Person",
            [
                F.attribute("fullName", .string, renamedFrom: "name"),
                F.attribute("email", .string, optional: false, default: ""),
            ],
            [Relationship("pets", destination: "Hound", toMany: true, isOrdered: true)])
        let hound = F.entity("Hound", renamedFrom: "Dog", [F.attribute("name", .string)])
        let mapping = try F.infer([person, dog], [newPerson, hound])
        #expect(
            mapping.changeDescriptions == [
                "Person: rename name → fullName",
                #"Person: add attribute email (String, required, default "")"#,
                "Person.pets: unordered → ordered",
                "Person: remove attribute age",
                "rename entity Dog → Hound",
            ])
    }

    @Test("a sourcePropertyName is read only from a plain $source.<name> expression")
    func sourcePropertyName() throws {
        #expect(
            PropertyMapping.sourceExpression(for: "name")
                == (try Expression(format: "$source.name")))
        let nested = PropertyMapping(
            name: "x", valueExpression: try Expression(format: "$source.owner.name"))
        let other = PropertyMapping(
            name: "x", valueExpression: try Expression(format: "$manager.name"))
        #expect(nested.sourcePropertyName == nil)
        #expect(other.sourcePropertyName == nil)
        #expect(PropertyMapping(name: "x").sourcePropertyName == nil)
    }
}
