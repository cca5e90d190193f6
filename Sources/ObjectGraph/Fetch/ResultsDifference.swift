/// How the results of a fetched-results controller changed in one event, as Core Data's
/// `NSFetchedResultsController` reports it (`NSFetchedResultsChangeType`: insert, delete,
/// move, update) and as a table view applies a batch of updates: deletions and the sources of
/// moves are index paths in the results *before* the change, insertions and the destinations
/// of moves index paths *after* it; sections likewise. `Sendable`: IDs and index paths only.
///
/// ```swift
/// controller.onChange = { difference in
///     tableView.performBatchUpdates {
///         tableView.deleteSections(difference.deletedSections.map(\.index))
///         tableView.insertSections(difference.insertedSections.map(\.index))
///         tableView.deleteRows(at: difference.deletedRows.map(\.indexPath))
///         tableView.insertRows(at: difference.insertedRows.map(\.indexPath))
///         for move in difference.movedRows { tableView.moveRow(at: move.from, to: move.to) }
///     }
///     tableView.reloadRows(at: difference.updatedRows.map(\.to))
/// }
/// ```
///
/// An object in a deleted (inserted) section is listed in ``deletedRows`` (``insertedRows``)
/// too, or as a move from (to) it. ``applied(to:)`` turns the snapshot before into the one
/// after.
public struct ResultsDifference: Sendable, Hashable {
    /// A section that appeared or went: its index and name.
    public struct SectionChange: Sendable, Hashable {
        /// The section's index: in the old results for a deletion, the new for an insertion.
        public var index: Int
        /// The section's name.
        public var name: String

        /// Creates a section change.
        public init(index: Int, name: String) {
            self.index = index
            self.name = name
        }
    }

    /// An object that entered or left the results, and where.
    public struct Row: Sendable, Hashable {
        /// The object.
        public var id: ObjectID
        /// In the new results for an insertion, the old for a deletion.
        public var indexPath: ResultsIndexPath

        /// Creates a row change.
        public init(id: ObjectID, indexPath: ResultsIndexPath) {
            self.id = id
            self.indexPath = indexPath
        }
    }

    /// An object that stayed in the results: where it was and where it is.
    public struct Move: Sendable, Hashable {
        /// The object.
        public var id: ObjectID
        /// Its index path in the old results.
        public var from: ResultsIndexPath
        /// Its index path in the new results.
        public var to: ResultsIndexPath

        /// Creates a move (or an update's old and new place).
        public init(id: ObjectID, from: ResultsIndexPath, to: ResultsIndexPath) {
            self.id = id
            self.from = from
            self.to = to
        }
    }

    /// Sections that appeared, by index in the new results, ascending.
    public var insertedSections: [SectionChange] = []
    /// Sections that went, by index in the old results, ascending.
    public var deletedSections: [SectionChange] = []
    /// Objects that entered the results (inserted, or changed to match), by new index path.
    public var insertedRows: [Row] = []
    /// Objects that left the results (deleted, or changed to no longer match), by old index
    /// path.
    public var deletedRows: [Row] = []
    /// Objects that changed place: their section, or their order among the objects around them.
    public var movedRows: [Move] = []
    /// Objects that changed and kept their place (Core Data's update): `from` in the old
    /// results, `to` in the new (they differ only by the rows inserted and deleted before it).
    public var updatedRows: [Move] = []

    /// Creates a difference.
    public init(
        insertedSections: [SectionChange] = [], deletedSections: [SectionChange] = [],
        insertedRows: [Row] = [], deletedRows: [Row] = [], movedRows: [Move] = [],
        updatedRows: [Move] = []
    ) {
        self.insertedSections = insertedSections
        self.deletedSections = deletedSections
        self.insertedRows = insertedRows
        self.deletedRows = deletedRows
        self.movedRows = movedRows
        self.updatedRows = updatedRows
    }

    /// Whether nothing changed.
    public var isEmpty: Bool {
        insertedSections.isEmpty && deletedSections.isEmpty && insertedRows.isEmpty
            && deletedRows.isEmpty && movedRows.isEmpty && updatedRows.isEmpty
    }

    /// Whether objects entered, left or moved, or sections changed: the results' IDs are
    /// different (an update alone leaves them as they were).
    public var changesIDs: Bool {
        !(insertedSections.isEmpty && deletedSections.isEmpty && insertedRows.isEmpty
            && deletedRows.isEmpty && movedRows.isEmpty)
    }

    /// The snapshot after this change, from the one before it (as a table view applies a
    /// batch update: deletions at old index paths, then insertions at new ones). `nil` when
    /// the difference does not fit `snapshot` (an index path outside it).
    ///
    /// ```swift
    /// let before = controller.snapshot
    /// controller.onChange = { difference in
    ///     assert(difference.applied(to: before!) == controller.snapshot)
    /// }
    /// ```
    public func applied(to snapshot: ResultsSnapshot) -> ResultsSnapshot? {
        let removed = Set(deletedRows.map(\.indexPath) + movedRows.map(\.from))
        let removedSections = Set(deletedSections.map(\.index))
        var sections: [ResultsSnapshot.Section] = []
        for (index, section) in snapshot.sections.enumerated() {
            var kept = section
            kept.ids = []
            for (row, id) in section.ids.enumerated()
            where !removed.contains(ResultsIndexPath(row: row, section: index)) {
                kept.ids.append(id)
            }
            if !removedSections.contains(index) {
                sections.append(kept)
            } else if !kept.ids.isEmpty {
                return nil  // rows of a deleted section must be listed as going
            }
        }
        guard removedSections.allSatisfy({ $0 < snapshot.sections.count }) else { return nil }
        for change in insertedSections.sorted(by: { $0.index < $1.index }) {
            guard change.index <= sections.count else { return nil }
            sections.insert(ResultsSnapshot.Section(name: change.name, ids: []), at: change.index)
        }
        let arriving =
            (insertedRows.map { ($0.indexPath, $0.id) } + movedRows.map { ($0.to, $0.id) })
            .sorted { $0.0 < $1.0 }
        for (path, id) in arriving {
            guard path.section < sections.count, path.row <= sections[path.section].ids.count
            else { return nil }
            sections[path.section].ids.insert(id, at: path.row)
        }
        return ResultsSnapshot(sections: sections)
    }
}
