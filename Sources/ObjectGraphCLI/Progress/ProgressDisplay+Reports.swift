import ObjectGraph

/// The library's progress reports as ``ProgressDisplay/Report``s.
extension ProgressDisplay.Report {
    /// A migration's report: steps done and the step (and entity) being migrated.
    init(_ progress: MigrationProgress) {
        var detail = progress.stage
        if let entity = progress.entityName { detail += "  \(entity)" }
        let done = progress.fractionCompleted >= 1 ? progress.stageCount : progress.stageIndex
        self.init(
            fraction: progress.fractionCompleted,
            counts: progress.stageCount > 0 ? (done, progress.stageCount) : nil,
            unit: progress.stageCount == 1 ? "step" : "steps", detail: detail)
    }

    /// A store copy's report: objects read, then written.
    init(_ progress: StoreCopyProgress) {
        var detail = progress.phase.rawValue
        if let entity = progress.entityName { detail += " \(entity)" }
        self.init(
            fraction: progress.fractionCompleted,
            counts: (progress.completedObjectCount, progress.totalObjectCount),
            unit: progress.totalObjectCount == 1 ? "object" : "objects", detail: detail)
    }
}
