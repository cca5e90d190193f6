import Foundation
import ObjectGraph
import Testing

/// Finding a store's version and the chain of steps to another version.
@Suite("Migration planner")
struct PlannerTests {
    typealias F = InferenceFixtures

    /// v1: Person(name, age: Integer 16); v2: + email; v3: age becomes a String (not
    /// inferable); v4: + nickname.
    static let v1 = F.version(
        "Model",
        [F.entity("Person", [F.attribute("name", .string), F.attribute("age", .integer16)])])
    static let v2 = F.version(
        "Model 2",
        [
            F.entity(
                "Person",
                [
                    F.attribute("name", .string), F.attribute("age", .integer16),
                    F.attribute("email", .string),
                ])
        ])
    static let v3 = F.version(
        "Model 3",
        [
            F.entity(
                "Person",
                [
                    F.attribute("name", .string), F.attribute("age", .date),
                    F.attribute("email", .string),
                ])
        ])
    static let v4 = F.version(
        "Model 4",
        [
            F.entity(
                "Person",
                [
                    F.attribute("name", .string), F.attribute("age", .date),
                    F.attribute("email", .string),
                    F.attribute("nickname", .string),
                ])
        ])
    static let versions = [v1, v2, v3, v4]

    /// A hand-made mapping model between two versions (copying what it can, ages dropped).
    static func mapping(_ source: ModelVersion, _ destination: ModelVersion, named: Bool = true)
        -> MappingModel
    {
        MappingModel(
            sourceVersionName: named ? source.name : nil,
            destinationVersionName: named ? destination.name : nil, sourceModel: source.model,
            destinationModel: destination.model,
            entityMappings: [
                EntityMapping(
                    name: "PersonToPerson", kind: .transform, sourceEntityName: "Person",
                    destinationEntityName: "Person",
                    attributeMappings: [
                        PropertyMapping(
                            name: "name",
                            valueExpression: PropertyMapping.sourceExpression(for: "name"))
                    ])
            ])
    }

    static func labels(_ steps: [MigrationStep]) -> [String] { steps.map(\.label) }

    @Test("a store's version is the one whose hashes equal the store's")
    func sourceVersion() throws {
        let found = try MigrationPlanner.sourceVersion(
            for: Self.v2.model.entityVersionHashes, among: Self.versions, store: "a.sqlite")
        #expect(found.name == "Model 2")
    }

    @Test("no matching version names the store and the entities differing from the current one")
    func noSourceModel() throws {
        var hashes = Self.v1.model.entityVersionHashes
        hashes["Ghost"] = Data(repeating: 1, count: 32)
        #expect(
            throws: MigrationError.noSourceModel(store: "a.sqlite", entities: ["Ghost", "Person"])
        ) {
            try MigrationPlanner.sourceVersion(for: hashes, among: Self.versions, store: "a.sqlite")
        }
    }

    @Test("the model the store carries is used when no version matches")
    func carriedModel() throws {
        let carried = EntityModel(entities: [F.entity("Person", [F.attribute("name", .string)])])
        let found = try MigrationPlanner.sourceVersion(
            for: carried.entityVersionHashes, among: Self.versions, store: "a.sqlite",
            carriedModel: { carried })
        #expect(found.name == "a.sqlite's model")
        #expect(found.model == carried)
        let steps = try MigrationPlanner.plan(
            from: found, to: Self.v2, versions: Self.versions, mappingModels: [], declaredSteps: [],
            infers: true)
        #expect(Self.labels(steps) == ["a.sqlite's model → Model 2 (inferred)"])
    }

    @Test("v1 → v2 is inferred")
    func inferredStep() throws {
        let steps = try MigrationPlanner.plan(
            from: Self.v1, to: Self.v2, versions: Self.versions, mappingModels: [],
            declaredSteps: [],
            infers: true)
        #expect(Self.labels(steps) == ["Model → Model 2 (inferred)"])
        #expect(steps[0].mapping.changeDescriptions == ["Person: add attribute email (String)"])
    }

    @Test("v1 → v4: inferred, then a mapping model where inference cannot go, then inferred")
    func chain() throws {
        let steps = try MigrationPlanner.plan(
            from: Self.v1, to: Self.v4, versions: Self.versions,
            mappingModels: [Self.mapping(Self.v2, Self.v3)], declaredSteps: [], infers: true)
        #expect(
            Self.labels(steps) == [
                "Model → Model 2 (inferred)", "Model 2 → Model 3 (mapping model)",
                "Model 3 → Model 4 (inferred)",
            ])
    }

    @Test("a mapping model found by its models' hashes when it names no versions")
    func mappingByHashes() throws {
        let steps = try MigrationPlanner.plan(
            from: Self.v2, to: Self.v3, versions: Self.versions,
            mappingModels: [Self.mapping(Self.v2, Self.v3, named: false)], declaredSteps: [],
            infers: true)
        #expect(Self.labels(steps) == ["Model 2 → Model 3 (mapping model)"])
    }

    @Test("a mapping model jumping several versions is taken over single steps")
    func jump() throws {
        let steps = try MigrationPlanner.plan(
            from: Self.v1, to: Self.v4, versions: Self.versions,
            mappingModels: [Self.mapping(Self.v2, Self.v3), Self.mapping(Self.v1, Self.v3)],
            declaredSteps: [], infers: true)
        #expect(
            Self.labels(steps) == [
                "Model → Model 3 (mapping model)", "Model 3 → Model 4 (inferred)",
            ])
    }

    @Test("a declared step is preferred to a mapping model for the same hop")
    func declaredStep() throws {
        let declared = MigrationStep(
            source: Self.v2, destination: Self.v3, mapping: Self.mapping(Self.v2, Self.v3))
        var other = Self.mapping(Self.v2, Self.v3)
        other.sourceFile = "other.xcmappingmodel"
        let steps = try MigrationPlanner.plan(
            from: Self.v2, to: Self.v3, versions: Self.versions, mappingModels: [other],
            declaredSteps: [declared], infers: true)
        #expect(steps == [declared])
    }

    @Test("no path: inference off and no mapping model")
    func noPath() throws {
        #expect(throws: MigrationError.noMigrationPath(from: "Model", to: "Model 4")) {
            try MigrationPlanner.plan(
                from: Self.v1, to: Self.v4, versions: Self.versions, mappingModels: [],
                declaredSteps: [], infers: false)
        }
    }

    @Test(
        "no path because a step cannot be inferred: the inference error names entity and property")
    func inferenceFails() throws {
        do {
            _ = try MigrationPlanner.plan(
                from: Self.v1, to: Self.v4, versions: Self.versions, mappingModels: [],
                declaredSteps: [], infers: true)
            Issue.record("planned a path through an uninferable step")
        } catch {
            #expect(F.place(of: error)?.entity == "Person")
            #expect(F.place(of: error)?.property == "age")
        }
    }

    @Test("the same version needs no step")
    func sameVersion() throws {
        let steps = try MigrationPlanner.plan(
            from: Self.v2, to: Self.v2, versions: Self.versions, mappingModels: [],
            declaredSteps: [],
            infers: false)
        #expect(steps.isEmpty)
    }

    @Test("a mapping model that leads to a dead end is given up for one that arrives")
    func backtrack() throws {
        // v1 → v3 by a mapping, but v3 → v4 is then not inferable when infers is off; the
        // route v1 → v2 → v4 by mapping models arrives.
        let steps = try MigrationPlanner.plan(
            from: Self.v1, to: Self.v4, versions: Self.versions,
            mappingModels: [
                Self.mapping(Self.v1, Self.v3), Self.mapping(Self.v1, Self.v2),
                Self.mapping(Self.v2, Self.v4),
            ],
            declaredSteps: [], infers: false)
        #expect(
            Self.labels(steps) == [
                "Model → Model 2 (mapping model)", "Model 2 → Model 4 (mapping model)",
            ])
    }

    @Test("a destination before the source is planned backwards the same way")
    func backwards() throws {
        let steps = try MigrationPlanner.plan(
            from: Self.v4, to: Self.v2, versions: Self.versions,
            mappingModels: [Self.mapping(Self.v3, Self.v2)], declaredSteps: [], infers: true)
        #expect(
            Self.labels(steps) == [
                "Model 4 → Model 3 (inferred)", "Model 3 → Model 2 (mapping model)",
            ])
        #expect(steps[0].mapping.changeDescriptions == ["Person: remove attribute nickname"])
    }
}
