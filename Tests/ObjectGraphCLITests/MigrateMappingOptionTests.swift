import Foundation
import ObjectGraph
import Testing

/// The policy class CoreStore's mapping model names; the default behaviour.
final class CommandLineEvolutionPolicy: EntityMigrationPolicy {}

/// `objectgraph migrate --mapping PATH` reads a real Xcode mapping model
/// (`coredata-stores/14-corestore-xcmapping-xml`, copied to a temporary folder, the mapping model
/// NOT beside the bundle so only `--mapping` can find it).
@Suite(
    "migrate --mapping",
    .enabled(if: GeneratedCodeCorpusTests.corpus != nil, "the shared corpus is absent"))
struct MigrateMappingOptionTests {
    @Test("a store migrates through the mapping model named by --mapping")
    func mappingOption() throws {
        let source = try #require(GeneratedCodeCorpusTests.corpus).appendingPathComponent(
            "coredata-stores/14-corestore-xcmapping-xml")
        let files = try ValidateDescribeFiles()
        defer { files.remove() }
        let bundle = files.folder.appendingPathComponent("Evolution.xcdatamodeld")
        try FileManager.default.copyItem(
            at: source.appendingPathComponent("Advanced.EvolutionDemo.V1.xcdatamodeld"),
            to: bundle)
        let mappings = files.folder.appendingPathComponent("mappings")
        try FileManager.default.createDirectory(at: mappings, withIntermediateDirectories: true)
        let mapping = mappings.appendingPathComponent(
            "Advanced.EvolutionDemo.V2.FromV1.xcmappingmodel")
        try FileManager.default.copyItem(
            at: source.appendingPathComponent(mapping.lastPathComponent), to: mapping)

        let store = files.folder.appendingPathComponent("Creatures.sqlite")
        let old = StoreCoordinator(
            model: try ModelBundle(contentsOf: bundle).model(named: "Advanced.EvolutionDemo.V1"))
        try old.addStore(type: .sqlite, at: store)
        let context = ManagedContext(coordinator: old)
        try context.insert("Creature").set(Int32(7), for: "numberOfFlagella")
        try context.save()

        MigrationPolicyRegistry.shared.register(
            CommandLineEvolutionPolicy.self, as: "Advanced_EvolutionDemo_V2_FromV1MigrationPolicy")
        let result = ValidateDescribeFiles.run([
            "migrate", "--model", bundle.path, "--to", "Advanced.EvolutionDemo.V2",
            "--mapping", mapping.path, store.path,
        ])
        #expect(result.status == 0, "\(result.errors)")

        let current = try StoreCoordinator(
            bundle: ModelBundle(contentsOf: bundle), version: "Advanced.EvolutionDemo.V2")
        try current.addStore(type: .sqlite, at: store, options: StoreOptions(isReadOnly: true))
        let creatures = try ManagedContext(coordinator: current).fetch(
            FetchRequest(entityName: "Creature"))
        #expect(try creatures.map { try $0.value(for: "numberOfFlippers") } == [.integer(7)])
    }
}
