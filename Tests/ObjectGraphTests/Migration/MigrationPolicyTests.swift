import Foundation
import ObjectGraph
import Testing

private typealias F = MigrationManagerFixtures

/// Records every hook call, in order, into a shared log.
final class RecordingPolicy: EntityMigrationPolicy {
    nonisolated(unsafe) static var log: [String] = []

    override func begin(_ mapping: EntityMapping, manager: MigrationManager) throws {
        Self.log.append("begin \(mapping.name)")
    }

    override func createDestinationInstances(
        forSource source: MigrationObject, in mapping: EntityMapping, manager: MigrationManager
    ) throws {
        Self.log.append("create \(source.attribute("name"))")
        try super.createDestinationInstances(forSource: source, in: mapping, manager: manager)
    }

    override func endInstanceCreation(forMapping mapping: EntityMapping, manager: MigrationManager)
        throws
    {
        Self.log.append("endInstanceCreation keys \(manager.destinationObjects.map(\.key))")
    }

    override func createRelationships(
        forDestination destination: MigrationObject, in mapping: EntityMapping,
        manager: MigrationManager
    ) throws {
        Self.log.append("relate \(destination.attribute("fullName")) key \(destination.key)")
        try super.createRelationships(forDestination: destination, in: mapping, manager: manager)
    }

    override func endRelationshipCreation(
        forMapping mapping: EntityMapping, manager: MigrationManager
    ) throws {
        Self.log.append("endRelationshipCreation")
    }

    override func performCustomValidation(
        forMapping mapping: EntityMapping, manager: MigrationManager
    ) throws {
        Self.log.append("validate")
    }

    override func end(_ mapping: EntityMapping, manager: MigrationManager) throws {
        Self.log.append("end")
    }
}

/// Splits each person into one Person per word of the name, and answers
/// `FUNCTION($entityPolicy, "initialOf:", …)`.
final class SplitPolicy: EntityMigrationPolicy {
    override func createDestinationInstances(
        forSource source: MigrationObject, in mapping: EntityMapping, manager: MigrationManager
    ) throws {
        guard case .string(let name) = source.attribute("name") else { return }
        for word in name.split(separator: " ") {
            let person = try manager.insertDestinationObject(entityName: "Person")
            try manager.setAttribute(
                "fullName", of: person, to: .value(.string(String(word))), in: mapping)
            manager.associate(source: source, destination: person, mapping: mapping)
        }
    }

    override func callFunction(_ selector: String, arguments: [EvaluationValue]) throws
        -> EvaluationValue
    {
        guard selector == "initialOf:", case .value(.string(let text))? = arguments.first else {
            return try super.callFunction(selector, arguments: arguments)
        }
        return .value(.string(String(text.prefix(1))))
    }
}

struct PolicyFailure: Error, CustomStringConvertible {
    var description: String { "the policy refuses" }
}

/// Throws in validation.
final class FailingPolicy: EntityMigrationPolicy {
    override func performCustomValidation(
        forMapping mapping: EntityMapping, manager: MigrationManager
    ) throws {
        throw PolicyFailure()
    }
}

/// Custom entity migration policies: hooks in Core Data's order, registry lookups, errors.
@Suite(.serialized) struct MigrationPolicyTests {
    @Test("hooks run in Core Data's three phases, keys given before relationships")
    func hookOrder() throws {
        let registry = MigrationPolicyRegistry()
        registry.register(RecordingPolicy.self, as: "RecordingPolicy")
        RecordingPolicy.log = []
        let person = try F.personMapping(policy: "RecordingPolicy", petsExpression: nil)
        let sources = [F.person("Ada", age: 1, key: 4), F.person("Bob", age: 2, key: 8)]
        _ = try MigrationManager(mapping: F.mapping([person]), policies: registry).migrate(sources)
        #expect(
            RecordingPolicy.log == [
                "begin PersonToPerson", #"create "Ada""#, #"create "Bob""#,
                "endInstanceCreation keys [0, 0]", #"relate "Ada" key 4"#, #"relate "Bob" key 8"#,
                "endRelationshipCreation", "validate", "end",
            ])
    }

    @Test("a custom policy makes several objects per source and answers FUNCTION($entityPolicy, …)")
    func customPolicy() throws {
        let registry = MigrationPolicyRegistry()
        registry.register(SplitPolicy.self, as: "SplitPolicy")
        let split = EntityMapping(
            name: "Split", kind: .custom, sourceEntityName: "Person",
            destinationEntityName: "Person",
            migrationPolicyClassName: "MyApp.SplitPolicy")
        let sources = [F.person("Ada Lovelace", age: 1, key: 3)]
        let result = try MigrationManager(mapping: F.mapping([split]), policies: registry).migrate(
            sources)
        #expect(result.map { $0.attribute("fullName") } == ["Ada", "Lovelace"])
        #expect(result.map(\.key) == [3, 4])

        var initials = try F.personMapping(policy: "SplitPolicy", petsExpression: nil)
        initials.kind = .custom
        let manager = MigrationManager(mapping: F.mapping([initials]), policies: registry)
        let value = try manager.evaluate(
            try F.expression(#"FUNCTION($entityPolicy, "initialOf:", $source.name)"#),
            source: sources[0], in: initials)
        #expect(value.description == #""A""#)
    }

    @Test("an unregistered policy class fails before any object is made")
    func unknownPolicy() throws {
        let person = try F.personMapping(policy: "Advanced_EvolutionDemo_V2_FromV1MigrationPolicy")
        #expect(
            throws: MigrationError.unknownMigrationPolicy(
                className: "Advanced_EvolutionDemo_V2_FromV1MigrationPolicy",
                mapping: "PersonToPerson")
        ) {
            try MigrationManager(mapping: F.mapping([person]), policies: MigrationPolicyRegistry())
                .migrate(F.people())
        }
    }

    @Test("a policy's own error becomes stageFailed naming the mapping")
    func policyError() throws {
        let registry = MigrationPolicyRegistry()
        registry.register(FailingPolicy.self, as: "FailingPolicy")
        let person = try F.personMapping(policy: "FailingPolicy", petsExpression: nil)
        #expect(
            throws: MigrationError.stageFailed(
                stage: "entity mapping PersonToPerson", reason: "the policy refuses")
        ) {
            try MigrationManager(mapping: F.mapping([person]), policies: registry).migrate(
                [F.person("Ada", age: 1, key: 1)])
        }
    }

    @Test("the registry: NSEntityMigrationPolicy is the default; unregister; shared registry")
    func registry() {
        let registry = MigrationPolicyRegistry()
        #expect(registry.policyType(named: "NSEntityMigrationPolicy") == EntityMigrationPolicy.self)
        registry.register(SplitPolicy.self, as: "X")
        #expect(registry.policyType(named: "Module.X") == SplitPolicy.self)
        registry.unregister("X")
        #expect(registry.policyType(named: "X") == nil)
        MigrationPolicyRegistry.shared.register(SplitPolicy.self, as: "SharedSplitPolicyForTest")
        #expect(MigrationPolicyRegistry.shared.policyType(named: "SharedSplitPolicyForTest") != nil)
        MigrationPolicyRegistry.shared.unregister("SharedSplitPolicyForTest")
    }
}
