/// Turns the manager's phases into ``MigrationProgress`` reports: creation takes the first 60%
/// of the stage, relationships the next 30%, validation the rest; within a phase, each entity
/// mapping's share is its count of source objects. Reports at most about every 1%.
struct MigrationProgressReporter {
    let manager: MigrationManager
    let callback: ((MigrationProgress) -> Void)?
    /// Each entity mapping's share within a phase (its source objects, by mapping index).
    var weights: [Int] = []
    private var phaseStart = 0.0
    private var phaseSpan = 0.0
    private var count = 0
    private var step = 1
    private var entityName: String?
    private static let phases: [(start: Double, span: Double)] = [(0, 0.6), (0.6, 0.3), (0.9, 0.1)]

    init(manager: MigrationManager, callback: ((MigrationProgress) -> Void)?) {
        self.manager = manager
        self.callback = callback
    }

    /// Starts mapping `index` of `phase` (0 create, 1 relationships, 2 validate), over `count`
    /// objects.
    mutating func begin(phase: Int, mapping index: Int, count: Int) {
        guard callback != nil else { return }
        let total = max(weights.reduce(0, +), 1)
        let before = weights.prefix(index).reduce(0, +)
        let share =
            phase == 2 ? 1.0 : Double(index < weights.count ? weights[index] : 0) / Double(total)
        let (start, span) = Self.phases[min(phase, 2)]
        phaseStart = start + (phase == 2 ? 0 : span * Double(before) / Double(total))
        phaseSpan = span * share
        self.count = count
        step = max(1, count / 100)
        let entityMappings = manager.mapping.entityMappings
        entityName =
            phase == 2 || index >= entityMappings.count
            ? nil : entityMappings[index].destinationEntityName
        report(phaseStart)
    }

    /// `done` of the current mapping's objects are done.
    mutating func advance(_ done: Int) {
        guard callback != nil, done % step == 0 || done == count else { return }
        report(phaseStart + phaseSpan * Double(done) / Double(max(count, 1)))
    }

    /// The stage is complete.
    mutating func finish() {
        entityName = nil
        report(1)
    }

    private func report(_ local: Double) {
        guard let callback else { return }
        let fraction =
            (Double(manager.stageIndex) + min(max(local, 0), 1)) / Double(manager.stageCount)
        callback(
            MigrationProgress(
                fractionCompleted: fraction, stageIndex: manager.stageIndex,
                stageCount: manager.stageCount, stage: manager.stageLabel, entityName: entityName))
    }
}
