import Foundation
import ObjectGraph

/// Hand-built models, mappings and source objects for the row-level migration manager's tests.
enum MigrationManagerFixtures {
    /// Person.pets, the same in both versions.
    static let pets = Relationship(
        "pets", destination: "Pet", toMany: true, inverse: "owner", isOrdered: true)

    /// Pet, the same in both versions.
    static let petEntity = Entity(
        "Pet", attributes: [Attribute("name", type: .string)],
        relationships: [Relationship("owner", destination: "Person", inverse: "pets")])

    /// Version 1: Person (name, age, nickname; pets ordered to-many ↔ Pet.owner), Pet (name).
    static let version1 = EntityModel(entities: [
        Entity(
            "Person",
            attributes: [
                Attribute("name", type: .string), Attribute("age", type: .integer32),
                Attribute("nickname", type: .string),
            ],
            relationships: [pets]),
        petEntity,
    ])

    /// Version 2: Person (fullName required, age Integer 16, rating default 0; pets ordered ↔
    /// Pet.owner), Pet (name).
    static let version2 = EntityModel(entities: [
        Entity(
            "Person",
            attributes: [
                Attribute("fullName", type: .string, isOptional: false),
                Attribute("age", type: .integer16),
                Attribute("rating", type: .integer16, defaultValueString: "0"),
            ],
            relationships: [pets]),
        petEntity,
    ])

    /// Parses an expression (tests only pass valid ones).
    static func expression(_ format: String) throws -> ObjectGraph.Expression {
        try ObjectGraph.Expression(format: format)
    }

    /// The usual Person mapping: fullName ← name, age ← age, pets through PetToPet.
    static func personMapping(
        kind: EntityMapping.Kind = .transform, filter: ObjectGraph.Predicate? = nil,
        policy: String? = nil,
        petsExpression: String? =
            #"FUNCTION($manager, "destinationInstancesForEntityMappingNamed:sourceInstances:", "PetToPet", $source.pets)"#
    ) throws -> EntityMapping {
        EntityMapping(
            name: "PersonToPerson", kind: kind, sourceEntityName: "Person",
            destinationEntityName: "Person", filterPredicate: filter,
            attributeMappings: [
                PropertyMapping(name: "fullName", valueExpression: try expression("$source.name")),
                PropertyMapping(name: "age", valueExpression: try expression("$source.age")),
                PropertyMapping(name: "rating"),
            ],
            relationshipMappings: [
                PropertyMapping(name: "pets", valueExpression: try petsExpression.map(expression))
            ],
            migrationPolicyClassName: policy)
    }

    /// Pet → Pet, owner through PersonToPerson.
    static func petMapping() throws -> EntityMapping {
        EntityMapping(
            name: "PetToPet", kind: .copy, sourceEntityName: "Pet", destinationEntityName: "Pet",
            attributeMappings: [
                PropertyMapping(name: "name", valueExpression: try expression("$source.name"))
            ],
            relationshipMappings: [
                PropertyMapping(
                    name: "owner",
                    valueExpression: try expression(
                        #"FUNCTION($manager, "destinationInstancesForEntityMappingNamed:sourceInstances:", "PersonToPerson", $source.owner)"#
                    ))
            ])
    }

    /// A mapping model from version 1 to version 2 with the given entity mappings.
    static func mapping(
        _ entityMappings: [EntityMapping], source: EntityModel = version1,
        destination: EntityModel = version2
    ) -> MappingModel {
        MappingModel(
            sourceVersionName: "V1", destinationVersionName: "V2", sourceModel: source,
            destinationModel: destination, entityMappings: entityMappings)
    }

    /// Ada (key 1, pets Rex then Ace) and Bob (key 2, no pets); Rex key 1, Ace key 2.
    static func people() -> [MigrationObject] {
        let ada = person("Ada", age: 36, key: 1)
        let bob = person("Bob", age: 41, key: 2)
        let rex = pet("Rex", key: 1, owner: ada)
        let ace = pet("Ace", key: 2, owner: ada)
        ada["pets"] = .toMany([rex, ace])
        return [ada, bob, ace, rex]
    }

    /// A version 1 person with every property present.
    static func person(_ name: String, age: Int64, key: Int64) -> MigrationObject {
        MigrationObject(
            entityName: "Person", key: key,
            attributes: ["name": .string(name), "age": .integer(age), "nickname": .null],
            toMany: ["pets": []])
    }

    /// A version 1 pet.
    static func pet(_ name: String, key: Int64, owner: MigrationObject?) -> MigrationObject {
        MigrationObject(
            entityName: "Pet", key: key, attributes: ["name": .string(name)],
            toOne: ["owner": owner])
    }

    /// The destination objects of `entity`, by their name-like attribute.
    static func named(_ objects: [MigrationObject], _ entity: String, _ attribute: String)
        -> [String: MigrationObject]
    {
        var result: [String: MigrationObject] = [:]
        for object in objects where object.entityName == entity {
            if case .string(let name) = object.attribute(attribute) { result[name] = object }
        }
        return result
    }
}
