/// One declared stage of a staged migration (Core Data's `NSMigrationStage`): a lightweight
/// (inferred) step, or a custom step with its own mapping and code that runs before and after
/// it. Steps between versions no stage covers are inferred.
///
/// ```swift
/// let stages: [MigrationStage] = [
///     .lightweight(from: "Model", to: "Model 2"),
///     .custom(from: "Model 2", to: "Model 3", willMigrate: { old in
///         // `old` is open on the store at Model 2: tidy data the mapping cannot.
///         let context = ManagedContext(coordinator: old)
///         for mood in try context.fetch(FetchRequest(entityName: "Mood")) where mood["name"] as String? == nil {
///             context.delete(mood)
///         }
///         try context.save()
///     }, didMigrate: { new in
///         // `new` is open on the store at Model 3.
///     }),
/// ]
/// var options = StoreOptions()
/// options.migration.stages = stages
/// ```
public struct MigrationStage: Sendable, Hashable {
    /// A stage's handler: runs with a coordinator open on the store at the stage's source
    /// version (`willMigrate`) or destination version (`didMigrate`). Saves it makes are kept.
    public typealias Handler = @Sendable (StoreCoordinator) throws -> Void

    /// What kind of stage it is.
    public enum Kind: String, Sendable, Hashable {
        /// An inferred mapping (`NSLightweightMigrationStage`).
        case lightweight
        /// A given mapping (or an inferred one) with handlers (`NSCustomMigrationStage`).
        case custom
    }

    /// The kind of stage.
    public let kind: Kind
    /// The source version's name.
    public let sourceVersionName: String
    /// The destination version's name.
    public let destinationVersionName: String
    /// The mapping a custom stage uses (`nil`: a mapping model of the options or coordinator
    /// naming both versions, else an inferred one).
    public let mapping: MappingModel?
    /// Runs before the stage, on the store at the source version.
    public let willMigrate: Handler?
    /// Runs after the stage, on the store at the destination version.
    public let didMigrate: Handler?
    /// A label for progress and errors (`Model → Model 2`).
    public var label: String { "\(sourceVersionName) → \(destinationVersionName)" }

    private init(
        kind: Kind, from source: String, to destination: String, mapping: MappingModel?,
        willMigrate: Handler?, didMigrate: Handler?
    ) {
        self.kind = kind
        sourceVersionName = source
        destinationVersionName = destination
        self.mapping = mapping
        self.willMigrate = willMigrate
        self.didMigrate = didMigrate
    }

    /// A stage from the version named `source` to the one named `destination` with an inferred
    /// mapping (even when inference is off in the options).
    public static func lightweight(from source: String, to destination: String) -> MigrationStage {
        MigrationStage(
            kind: .lightweight, from: source, to: destination, mapping: nil, willMigrate: nil,
            didMigrate: nil)
    }

    /// A custom stage: `mapping` (or one found or inferred), with `willMigrate` run on the store
    /// at `source` before, and `didMigrate` on the store at `destination` after.
    public static func custom(
        from source: String, to destination: String, mapping: MappingModel? = nil,
        willMigrate: Handler? = nil, didMigrate: Handler? = nil
    ) -> MigrationStage {
        MigrationStage(
            kind: .custom, from: source, to: destination, mapping: mapping,
            willMigrate: willMigrate, didMigrate: didMigrate)
    }

    /// Whether the stage runs code of its own.
    var hasHandlers: Bool { willMigrate != nil || didMigrate != nil }

    public static func == (lhs: MigrationStage, rhs: MigrationStage) -> Bool {
        lhs.kind == rhs.kind && lhs.sourceVersionName == rhs.sourceVersionName
            && lhs.destinationVersionName == rhs.destinationVersionName
            && lhs.mapping == rhs.mapping
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(kind)
        hasher.combine(sourceVersionName)
        hasher.combine(destinationVersionName)
        hasher.combine(mapping)
    }
}
