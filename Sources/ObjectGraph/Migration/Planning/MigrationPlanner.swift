/// Finds the version a store was written with and the chain of steps that migrates it to
/// another version (Core Data's model search and staged migration plan).
///
/// The chain follows the versions in the bundle's order (`ModelBundle.versionNames`). From each
/// version it takes, in this order of preference: a declared ``MigrationStep`` starting there,
/// a ``MappingModel`` whose source is that version (by version name, else by equal entity
/// version hashes) — either may jump several versions, the furthest first — and, when `infers`,
/// the inferred mapping to the next version. A choice that leads nowhere is given up for the
/// next one.
///
/// ```swift
/// let source = try MigrationPlanner.sourceVersion(for: storeHashes, among: versions, store: path)
/// let steps = try MigrationPlanner.plan(
///     from: source, to: versions[versions.count - 1], versions: versions, mappingModels: mappings,
///     declaredSteps: [], infers: true)
/// for step in steps { print(step.label) }   // "Model → Model 2 (inferred)", …
/// ```
public enum MigrationPlanner {
    /// The steps from `source` to `destination`, in the order they run; empty when the two are
    /// the same version (same name, or same entity version hashes).
    ///
    /// `source` need not be one of `versions` (a model a store carries): then only declared
    /// steps and mapping models matching its hashes, or inference straight to `destination`,
    /// lead from it. A `destination` before `source` in `versions` is planned backwards the same
    /// way.
    ///
    /// - Throws: when inference was needed and failed at a step, that step's
    ///   ``MigrationError/cannotInferMapping(entity:property:reason:)``; otherwise, when nothing
    ///   leads to `destination`, ``MigrationError/noMigrationPath(from:to:)``.
    public static func plan(
        from source: ModelVersion, to destination: ModelVersion, versions: [ModelVersion],
        mappingModels: [MappingModel], declaredSteps: [MigrationStep], infers: Bool
    ) throws(MigrationError) -> [MigrationStep] {
        if source.name == destination.name
            || source.model.entityVersionHashes == destination.model.entityVersionHashes
        {
            return []
        }
        var search = MigrationPathSearch(
            source: source, destination: destination, versions: versions,
            mappingModels: mappingModels, declaredSteps: declaredSteps, infers: infers)
        if let steps = search.run() { return steps }
        if let failure = search.inferenceFailure { throw failure }
        throw .noMigrationPath(from: source.name, to: destination.name)
    }
}
