/// One stage of a migration: the version it starts from, the version it ends at and the mapping
/// between them.
///
/// ```swift
/// let step = MigrationStep(source: v1, destination: v2, mapping: try MappingModel.inferred(from: v1, to: v2))
/// print(step.label)   // "Model → Model 2 (inferred)"
/// ```
public struct MigrationStep: Sendable, Hashable {
    /// The version the stage starts from.
    public var source: ModelVersion
    /// The version the stage ends at.
    public var destination: ModelVersion
    /// How objects are mapped.
    public var mapping: MappingModel

    /// Creates a step.
    public init(source: ModelVersion, destination: ModelVersion, mapping: MappingModel) {
        self.source = source
        self.destination = destination
        self.mapping = mapping
    }

    /// `Model → Model 2 (inferred)` or `… (mapping model)`.
    public var label: String {
        "\(source.name) → \(destination.name) (\(mapping.isInferred ? "inferred" : "mapping model"))"
    }
}
