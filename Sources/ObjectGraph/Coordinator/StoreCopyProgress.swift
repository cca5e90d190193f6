/// How far copying a store into a new file
/// (``StoreCoordinator/migrateStore(_:to:type:progress:)``) has come: objects read from the old
/// store, then objects written to the new one.
///
/// ```swift
/// try coordinator.migrateStore(store, to: url, type: .binary) { progress in
///     print("\(progress.phase) \(progress.completedObjectCount)/\(progress.totalObjectCount)")
/// }
/// ```
public struct StoreCopyProgress: Sendable, Hashable {
    /// What the copy is doing.
    public enum Phase: String, Sendable, Hashable {
        /// Reading objects (and their to-many relationships) from the old store.
        case reading
        /// Writing the objects to the new store.
        case writing
    }

    /// What the copy is doing.
    public var phase: Phase
    /// Objects done in this phase.
    public var completedObjectCount: Int
    /// Objects in the store.
    public var totalObjectCount: Int
    /// The entity whose objects were just read, while reading.
    public var entityName: String?

    /// Creates a progress report.
    public init(
        phase: Phase, completedObjectCount: Int, totalObjectCount: Int, entityName: String? = nil
    ) {
        self.phase = phase
        self.completedObjectCount = completedObjectCount
        self.totalObjectCount = totalObjectCount
        self.entityName = entityName
    }

    /// Done so far, from 0 to 1: reading is the first half, writing the second.
    public var fractionCompleted: Double {
        let total = max(totalObjectCount, 1)
        let inPhase = min(max(Double(completedObjectCount) / Double(total), 0), 1)
        return (phase == .reading ? 0 : 0.5) + inPhase / 2
    }
}
