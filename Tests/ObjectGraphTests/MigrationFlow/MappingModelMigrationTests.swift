import Foundation
import ObjectGraph
import Testing

/// The migration policy the corpus mapping model names; the default behaviour.
final class EvolutionDemoPolicy: EntityMigrationPolicy {}

/// A store migrates through a real Xcode mapping model found beside its bundle
/// (`coredata-stores/14-corestore-xcmapping-xml`, CoreStore's evolution demo, copied to a
/// temporary folder): `Advanced.EvolutionDemo.V2.FromV1.xcmappingmodel` maps
/// `numberOfFlagella` to `numberOfFlippers` and sets `hasHead` to `TRUE`, which no inferred
/// mapping would do (it would drop the one and add the other).
@Suite(
    "a store migrates through the mapping model beside its bundle",
    .enabled(if: MigrationFlowSupport.corpus != nil, "the shared corpus is absent"))
struct MappingModelMigrationTests {
    static let policyName = "Advanced_EvolutionDemo_V2_FromV1MigrationPolicy"

    @Test(
        "V1 → V2 through Advanced.EvolutionDemo.V2.FromV1.xcmappingmodel",
        arguments: [StoreType.sqlite, .xml, .binary])
    func evolution(type: StoreType) throws {
        let source = try #require(MigrationFlowSupport.corpus).appendingPathComponent(
            "coredata-stores/14-corestore-xcmapping-xml")
        let folder = try TestSupport.makeTemporaryFolder()
        defer { TestSupport.removeTemporaryFolder(folder) }
        for item in try FileManager.default.contentsOfDirectory(atPath: source.path) {
            try FileManager.default.copyItem(
                at: source.appendingPathComponent(item), to: folder.appendingPathComponent(item))
        }
        let bundleURL = folder.appendingPathComponent("Advanced.EvolutionDemo.V1.xcdatamodeld")
        let bundle = try ModelBundle(contentsOf: bundleURL)
        let store = folder.appendingPathComponent("Creatures.\(type.rawValue)")

        let old = StoreCoordinator(model: try bundle.model(named: "Advanced.EvolutionDemo.V1"))
        try old.addStore(type: type, at: store)
        let context = ManagedContext(coordinator: old)
        for flagella in [3, 5, 8] {
            let creature = try context.insert("Creature")
            try creature.set(Int32(flagella), for: "numberOfFlagella")
        }
        try context.save()

        MigrationPolicyRegistry.shared.register(EvolutionDemoPolicy.self, as: Self.policyName)
        let coordinator = try StoreCoordinator(bundle: bundle, version: "Advanced.EvolutionDemo.V2")
        #expect(coordinator.mappingModels.count == 2)
        let steps = try coordinator.migrationPlan(forStoreAt: store, type: type)
        #expect(steps.map(\.mapping.isInferred) == [false])
        try coordinator.addStore(type: type, at: store)

        let creatures = try ManagedContext(coordinator: coordinator).fetch(
            FetchRequest(
                entityName: "Creature",
                sortDescriptors: [SortDescriptor("numberOfFlippers", ascending: true)]))
        #expect(
            try creatures.map { try $0.value(for: "numberOfFlippers") }
                == [3, 5, 8].map {
                    Value.integer($0)
                })
        #expect(try creatures.allSatisfy { try $0.value(for: "hasHead") == .bool(true) })
    }
}
