import Foundation
import ObjectGraph
import Testing

private typealias F = MigrationManagerFixtures

/// The row-level migration manager runs hand-built mapping models feature by feature.
@Suite struct MigrationManagerTests {
    private func migrate(_ mapping: MappingModel, _ sources: [MigrationObject] = F.people())
        throws -> [MigrationObject]
    {
        try MigrationManager(mapping: mapping, policies: MigrationPolicyRegistry()).migrate(sources)
    }

    @Test("transform: attribute expressions, defaults for unmapped attributes, conversions")
    func transform() throws {
        let result = try migrate(F.mapping([try F.personMapping(), try F.petMapping()]))
        let people = F.named(result, "Person", "fullName")
        #expect(Set(people.keys) == ["Ada", "Bob"])
        #expect(people["Ada"]?.attribute("age") == .integer(36))
        #expect(people["Ada"]?.attribute("rating") == .integer(0))
        #expect(people["Ada"]?["nickname"] == nil)  // not in version 2
        #expect(result.count == 4)
    }

    @Test(
        "copy keeps keys; relationships through destinationInstancesForEntityMappingNamed keep order"
    )
    func relationshipsAndOrder() throws {
        let result = try migrate(F.mapping([try F.personMapping(), try F.petMapping()]))
        let people = F.named(result, "Person", "fullName")
        let pets = F.named(result, "Pet", "name")
        #expect(people["Ada"]?.key == 1)
        #expect(people["Bob"]?.key == 2)
        #expect(pets["Rex"]?.key == 1)
        #expect(people["Ada"]?.related("pets").map { $0.attribute("name") } == ["Rex", "Ace"])
        #expect(pets["Ace"]?.related("owner").first === people["Ada"])
        #expect(people["Bob"]?.related("pets").isEmpty == true)
    }

    @Test("one side mapped: the inverse is filled, in the order met")
    func inverseCompletion() throws {
        let petsUnmapped = try F.personMapping(petsExpression: nil)
        let result = try migrate(F.mapping([petsUnmapped, try F.petMapping()]))
        let ada = F.named(result, "Person", "fullName")["Ada"]
        // Pets are made in source order (Ace, then Rex), so the filled inverse has that order.
        #expect(ada?.related("pets").map { $0.attribute("name") } == ["Ace", "Rex"])
    }

    @Test("inferred-style $source.rel: source objects stand for their destination objects")
    func inferredRelationshipExpressions() throws {
        let person = try F.personMapping(petsExpression: "$source.pets")
        var pet = try F.petMapping()
        pet.relationshipMappings = [
            PropertyMapping(name: "owner", valueExpression: try F.expression("$source.owner"))
        ]
        let result = try migrate(F.mapping([person, pet]))
        let ada = F.named(result, "Person", "fullName")["Ada"]
        #expect(ada?.related("pets").map { $0.attribute("name") } == ["Rex", "Ace"])
        #expect(F.named(result, "Pet", "name")["Rex"]?.related("owner").first === ada)
    }

    @Test("destinationInstancesForSourceRelationshipNamed (Xcode's relationship mappings)")
    func sourceRelationshipFunction() throws {
        let person = try F.personMapping(
            petsExpression:
                #"FUNCTION($manager, "destinationInstancesForSourceRelationshipNamed:sourceInstances:", "pets", $source.pets)"#
        )
        let result = try migrate(F.mapping([person, try F.petMapping()]))
        let ada = F.named(result, "Person", "fullName")["Ada"]
        #expect(ada?.related("pets").map { $0.attribute("name") } == ["Rex", "Ace"])
    }

    @Test("filter predicate: only matching sources migrate; relationships to dropped ones vanish")
    func filterPredicate() throws {
        let person = try F.personMapping(filter: try ObjectGraph.Predicate(format: "age < 40"))
        let result = try migrate(F.mapping([person, try F.petMapping()]))
        #expect(Set(F.named(result, "Person", "fullName").keys) == ["Ada"])
        var pet = try F.petMapping()
        pet.filterPredicate = try ObjectGraph.Predicate(format: "name BEGINSWITH 'R'")
        let second = try migrate(F.mapping([try F.personMapping(), pet]))
        let ada = F.named(second, "Person", "fullName")["Ada"]
        #expect(ada?.related("pets").map { $0.attribute("name") } == ["Rex"])
    }

    @Test("source expression: FETCH of fetchRequestForSourceEntityNamed:predicateString:")
    func sourceExpression() throws {
        var person = try F.personMapping()
        // As the mapping-model reader decodes Xcode's NSFetchRequestExpression.
        person.sourceExpression = .function(
            "FETCH",
            [
                try F.expression(
                    #"FUNCTION($manager, "fetchRequestForSourceEntityNamed:predicateString:", "Person", "name == 'Bob'")"#
                ),
                try F.expression("$manager.sourceContext"), .constant(.bool(false)),
            ])
        let result = try migrate(F.mapping([person, try F.petMapping()]))
        #expect(Set(F.named(result, "Person", "fullName").keys) == ["Bob"])
        #expect(F.named(result, "Pet", "name")["Rex"]?.related("owner").isEmpty == true)
    }

    @Test("collection operators, $entityMapping and arithmetic in value expressions")
    func collectionOperators() throws {
        var person = try F.personMapping()
        person.attributeMappings = [
            PropertyMapping(
                name: "fullName",
                valueExpression: try F.expression(#"FUNCTION($source.name, "uppercaseString")"#)),
            PropertyMapping(
                name: "rating", valueExpression: try F.expression("$source.pets.@count * 10")),
            PropertyMapping(
                name: "age", valueExpression: try F.expression("$entityMapping.name.@count")),
        ]
        var pet = try F.petMapping()
        pet.attributeMappings = [
            PropertyMapping(
                name: "name",
                valueExpression: try F.expression(#"FUNCTION($source, "valueForKey:", "name")"#))
        ]
        let result = try migrate(F.mapping([person, pet]))
        let ada = F.named(result, "Person", "fullName")["ADA"]
        #expect(Set(F.named(result, "Pet", "name").keys) == ["Rex", "Ace"])
        #expect(ada?.attribute("rating") == .integer(20))
        #expect(ada?.attribute("age") == .integer(14))  // "PersonToPerson".count
    }

    @Test("add and remove mappings create nothing; a dropped entity's objects are gone")
    func addAndRemove() throws {
        let removePets = EntityMapping(name: "PetToNothing", kind: .remove, sourceEntityName: "Pet")
        let addPets = EntityMapping(name: "Pet", kind: .add, destinationEntityName: "Pet")
        let result = try migrate(
            F.mapping([try F.personMapping(petsExpression: nil), removePets, addPets]))
        #expect(result.allSatisfy { $0.entityName == "Person" })
        #expect(F.named(result, "Person", "fullName")["Ada"]?.related("pets").isEmpty == true)
    }

    @Test("keys: new objects after the table's max; an entity moved into a hierarchy gets new keys")
    func keys() throws {
        // Version 2b: Pet becomes a subentity of a new Animal root — Pet changes table.
        let animals = EntityModel(entities: [
            try #require(F.version2.entity(named: "Person")),
            Entity("Animal", attributes: [Attribute("name", type: .string)]),
            {
                var pet = Entity(
                    "Pet", parent: "Animal",
                    relationships: [Relationship("owner", destination: "Person", inverse: "pets")])
                pet.attributes = []
                return pet
            }(),
        ])
        let split = try F.personMapping()
        let result = try migrate(
            F.mapping([split, try F.petMapping()], destination: animals))
        let pets = F.named(result, "Pet", "name")
        #expect(Set(pets.values.map(\.key)) == [1, 2])
        // Ace comes first in source order, so it takes key 1 in the new Animal table.
        #expect(pets["Ace"]?.key == 1)
        #expect(pets["Rex"]?.key == 2)
    }

    @Test("keys: a second destination of one source gets the next key; a renamed root keeps keys")
    func keysOfSplitAndRenamed() throws {
        var renamedPerson = try #require(F.version2.entity(named: "Person"))
        renamedPerson.name = "Human"
        renamedPerson.renamingIdentifier = "Person"
        renamedPerson.relationships = []
        let model = EntityModel(entities: [renamedPerson])
        let toHuman = EntityMapping(
            name: "PersonToHuman", kind: .transform, sourceEntityName: "Person",
            destinationEntityName: "Human",
            attributeMappings: [
                PropertyMapping(name: "fullName", valueExpression: try F.expression("$source.name"))
            ])
        var twice = toHuman
        twice.name = "PersonToHumanAgain"
        let sources = [F.person("Ada", age: 1, key: 5), F.person("Bob", age: 2, key: 9)]
        let result = try migrate(F.mapping([toHuman, twice], destination: model), sources)
        #expect(result.map(\.key) == [5, 9, 10, 11])
    }

    @Test("validation: a required attribute left nil names every object")
    func missingRequired() throws {
        var person = try F.personMapping()
        person.attributeMappings[0].valueExpression = try F.expression("$source.nickname")
        #expect(
            throws: MigrationError.missingRequiredValues(
                entity: "Person", property: "fullName", objects: ["Person/p1", "Person/p2"])
        ) {
            try migrate(F.mapping([person, try F.petMapping()]))
        }
    }

    @Test("validation: a uniqueness constraint broken by migrated objects names them")
    func uniqueness() throws {
        var people = try #require(F.version2.entity(named: "Person"))
        people.uniquenessConstraints = [["rating"]]
        let model = EntityModel(entities: [people, try #require(F.version2.entity(named: "Pet"))])
        #expect(
            throws: MigrationError.uniquenessViolated(
                entity: "Person", properties: ["rating"], objects: ["Person/p1", "Person/p2"])
        ) {
            try migrate(F.mapping([try F.personMapping(), try F.petMapping()], destination: model))
        }
    }

    @Test("a value that does not fit the destination type names entity, property and object")
    func conversionFailure() throws {
        let sources = [F.person("Ada", age: 70_000, key: 3)]
        #expect(
            throws: MigrationError.cannotConvertValue(
                entity: "Person", property: "age",
                reason: "Person made from Person/p3: 70000 does not fit Integer 16")
        ) {
            try migrate(F.mapping([try F.personMapping(petsExpression: nil)]), sources)
        }
    }

    @Test("a key the source object lacks, or an unknown manager method, fails naming the mapping")
    func expressionErrors() throws {
        var person = try F.personMapping(petsExpression: nil)
        person.attributeMappings[0].valueExpression = try F.expression("$source.surname")
        do {
            _ = try migrate(F.mapping([person]))
            Issue.record("expected an error")
        } catch let MigrationError.expressionFailed(mapping, property, reason) {
            #expect(mapping == "PersonToPerson")
            #expect(property == "fullName")
            #expect(reason.contains("surname") && reason.contains("Person/p"))
        }
        person.attributeMappings[0].valueExpression = try F.expression(
            #"FUNCTION($manager, "noSuchMethod:", 1)"#)
        #expect(throws: MigrationError.self) { try migrate(F.mapping([person])) }
        let unknownMapping = try F.personMapping(
            petsExpression:
                #"FUNCTION($manager, "destinationInstancesForEntityMappingNamed:sourceInstances:", "Nope", $source.pets)"#
        )
        #expect(throws: MigrationError.self) { try migrate(F.mapping([unknownMapping])) }
    }

    @Test("a to-one given several objects, or objects of the wrong entity, is refused")
    func relationshipShapeErrors() throws {
        var pet = try F.petMapping()
        pet.relationshipMappings[0].valueExpression = try F.expression(
            #"FUNCTION($manager, "destinationInstancesForEntityMappingNamed:sourceInstances:", "PersonToPerson", FUNCTION($manager, "fetchRequestForSourceEntityNamed:predicateString:", "Person", "TRUEPREDICATE"))"#
        )
        #expect(throws: MigrationError.self) {
            try migrate(F.mapping([try F.personMapping(petsExpression: nil), pet]))
        }
        let wrong = try F.personMapping(
            petsExpression:
                #"FUNCTION($manager, "destinationInstancesForEntityMappingNamed:sourceInstances:", "PersonToPerson", {$source})"#
        )
        #expect(throws: MigrationError.self) {
            try migrate(F.mapping([wrong, try F.petMapping()]))
        }
    }

    @Test("progress rises from 0 to 1 within the stage's share of the chain")
    func progress() throws {
        var reports: [MigrationProgress] = []
        let manager = MigrationManager(
            mapping: F.mapping([try F.personMapping(), try F.petMapping()]),
            policies: MigrationPolicyRegistry(), stageIndex: 1, stageCount: 2, stageLabel: "V1 → V2"
        )
        _ = try manager.migrate(F.people()) { reports.append($0) }
        let fractions = reports.map(\.fractionCompleted)
        #expect(fractions.first == 0.5)
        #expect(fractions.last == 1)
        #expect(zip(fractions, fractions.dropFirst()).allSatisfy { $0 <= $1 })
        #expect(reports.allSatisfy { $0.stage == "V1 → V2" && $0.stageIndex == 1 })
        #expect(reports.contains { $0.entityName == "Pet" })
    }

    @Test("a mapping naming an entity the model lacks fails before any object is made")
    func unknownEntity() throws {
        var person = try F.personMapping()
        person.destinationEntityName = "Human"
        #expect(
            throws: MigrationError.expressionFailed(
                mapping: "PersonToPerson", property: nil,
                reason: "the destination model has no entity Human")
        ) {
            try migrate(F.mapping([person]))
        }
    }
}
