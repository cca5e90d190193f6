/// How far a migration has come: the fraction done, the stage and the entity being migrated.
///
/// ```swift
/// options.migration.progress = { print("\(Int($0.fractionCompleted * 100))% \($0.stage)") }
/// ```
public struct MigrationProgress: Sendable, Hashable {
    /// Done so far, from 0 to 1 over the whole migration (all stages).
    public var fractionCompleted: Double
    /// The stage being run, counted from 0.
    public var stageIndex: Int
    /// How many stages the migration has.
    public var stageCount: Int
    /// The stage's description (`Model 1 → Model 2 (inferred)`).
    public var stage: String
    /// The entity being migrated, when the stage is at one.
    public var entityName: String?

    /// Creates a progress report.
    public init(
        fractionCompleted: Double, stageIndex: Int, stageCount: Int, stage: String,
        entityName: String? = nil
    ) {
        self.fractionCompleted = fractionCompleted
        self.stageIndex = stageIndex
        self.stageCount = stageCount
        self.stage = stage
        self.entityName = entityName
    }
}
