/// One version of a model bundle: its name and its model.
///
/// ```swift
/// let bundle = try ModelBundle(contentsOf: bundleURL)
/// let versions = try bundle.versionNames.map { ModelVersion(name: $0, model: try bundle.model(named: $0)) }
/// ```
public struct ModelVersion: Sendable, Hashable {
    /// The version's name (`Model 2` for `Model 2.xcdatamodel`).
    public var name: String
    /// The model.
    public var model: EntityModel

    /// Creates a model version.
    public init(name: String, model: EntityModel) {
        self.name = name
        self.model = model
    }
}
