/// A transaction's changes as runs (``HistoryChangeRun``), in the order they were made: a
/// change continuing the last run joins it, any other starts a new one.
struct HistoryRunList {
    private(set) var runs: [HistoryChangeRun] = []
    /// How many changes, over every run.
    private(set) var changeCount = 0
    /// Whether a change is a delete (whose tombstones must be read).
    private(set) var hasDeletes = false

    /// Adds the change of the row at `key` of `entity`.
    mutating func append(
        _ type: HistoryChangeType, entity: EntityLayout, key: Int64,
        columns: ChangedColumns = .none
    ) {
        changeCount += 1
        if type == .delete { hasDeletes = true }
        if let last = runs.indices.last,
            runs[last].absorb(type, entityNumber: entity.entityNumber, key: key, columns: columns)
        {
            return
        }
        runs.append(
            HistoryChangeRun(
                type: type, entityNumber: entity.entityNumber, tableName: entity.tableName,
                firstKey: key, count: 1, columns: columns))
    }
}
