/// Computes a ``ResultsDifference`` from where objects were and where they are.
///
/// Given the rows that may have changed place (candidates; every other row is known to keep
/// its section and its order among the others), a candidate in both is *moved* when its
/// section changed, when the number of other rows before it in its section changed, or when
/// it left its order among the candidates between the same two other rows (the fewest moves:
/// a longest increasing run stays); else it stays, *updated* when its object changed.
enum ResultsDiffer {
    /// A row that may have changed place: its object, its ID, where it is.
    struct Candidate {
        var key: ObjectIdentifier
        var id: ObjectID
        var path: ResultsIndexPath
    }

    /// The difference between two whole results, every row a candidate.
    static func difference<T: ManagedObject>(
        from old: [ResultsTracker<T>.Section], to new: [ResultsTracker<T>.Section],
        updated: Set<ObjectIdentifier>
    ) -> ResultsDifference {
        func candidates(_ sections: [ResultsTracker<T>.Section]) -> [Candidate] {
            var all: [Candidate] = []
            for (index, section) in sections.enumerated() {
                for (row, object) in section.objects.enumerated() {
                    all.append(
                        Candidate(
                            key: ObjectIdentifier(object), id: object.objectID,
                            path: ResultsIndexPath(row: row, section: index)))
                }
            }
            return all
        }
        return difference(
            oldNames: old.map(\.name), newNames: new.map(\.name), old: candidates(old),
            new: candidates(new), updated: updated, allRows: true) ?? ResultsDifference()
    }

    /// The difference given the candidates before (`old`) and after (`new`). `nil` when
    /// surviving sections changed order and not every row is a candidate (the caller then
    /// compares whole results): such sections are reported deleted and inserted again, which
    /// lists every row in them.
    static func difference(
        oldNames: [String], newNames: [String], old: [Candidate], new: [Candidate],
        updated: Set<ObjectIdentifier>, allRows: Bool
    ) -> ResultsDifference? {
        let oldIndex = Dictionary(
            oldNames.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
        let newIndex = Dictionary(
            newNames.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
        let survivingOld = oldNames.filter { newIndex[$0] != nil }
        let survivingNew = newNames.filter { oldIndex[$0] != nil }
        var recreated = Set<String>()
        for (before, after) in zip(survivingOld, survivingNew) where before != after {
            recreated.insert(before)
            recreated.insert(after)
        }
        if !recreated.isEmpty && !allRows { return nil }
        var difference = ResultsDifference()
        for (index, name) in oldNames.enumerated()
        where newIndex[name] == nil || recreated.contains(name) {
            difference.deletedSections.append(.init(index: index, name: name))
        }
        for (index, name) in newNames.enumerated()
        where oldIndex[name] == nil || recreated.contains(name) {
            difference.insertedSections.append(.init(index: index, name: name))
        }
        let oldByKey = Dictionary(old.map { ($0.key, $0) }, uniquingKeysWith: { first, _ in first })
        let newByKey = Dictionary(new.map { ($0.key, $0) }, uniquingKeysWith: { first, _ in first })
        func staying(_ key: ObjectIdentifier) -> (old: Candidate, new: Candidate)? {
            guard let before = oldByKey[key], let after = newByKey[key],
                !recreated.contains(oldNames[before.path.section]),
                !recreated.contains(newNames[after.path.section])
            else { return nil }
            return (before, after)
        }
        for candidate in old where staying(candidate.key) == nil {
            difference.deletedRows.append(.init(id: candidate.id, indexPath: candidate.path))
        }
        var groups: [Gap: [(old: Candidate, new: Candidate)]] = [:]
        let oldRanks = ranks(old)
        let newRanks = ranks(new)
        for candidate in new {
            guard let pair = staying(candidate.key) else {
                difference.insertedRows.append(.init(id: candidate.id, indexPath: candidate.path))
                continue
            }
            let before = Gap(
                section: oldNames[pair.old.path.section], rank: oldRanks[candidate.key] ?? 0)
            let after = Gap(
                section: newNames[pair.new.path.section], rank: newRanks[candidate.key] ?? 0)
            if before == after {
                groups[after, default: []].append(pair)
            } else {
                difference.movedRows.append(
                    .init(id: candidate.id, from: pair.old.path, to: pair.new.path))
            }
        }
        for pairs in groups.values {
            let inNewOrder = pairs.sorted { $0.new.path.row < $1.new.path.row }
            let kept = longestIncreasingRun(inNewOrder.map(\.old.path.row))
            for (position, pair) in inNewOrder.enumerated() {
                if !kept.contains(position) {
                    difference.movedRows.append(
                        .init(id: pair.new.id, from: pair.old.path, to: pair.new.path))
                } else if updated.contains(pair.new.key) {
                    difference.updatedRows.append(
                        .init(id: pair.new.id, from: pair.old.path, to: pair.new.path))
                }
            }
        }
        difference.deletedRows.sort { $0.indexPath < $1.indexPath }
        difference.insertedRows.sort { $0.indexPath < $1.indexPath }
        difference.movedRows.sort { $0.to < $1.to }
        difference.updatedRows.sort { $0.to < $1.to }
        return difference
    }

    /// Where a staying row sits among the rows that are not candidates: its section, and how
    /// many of them come before it there.
    private struct Gap: Hashable {
        var section: String
        var rank: Int
    }

    /// For each candidate, how many non-candidate rows come before it in its section.
    private static func ranks(_ candidates: [Candidate]) -> [ObjectIdentifier: Int] {
        var ranks: [ObjectIdentifier: Int] = [:]
        var candidatesBefore = 0
        var section = -1
        for candidate in candidates.sorted(by: { $0.path < $1.path }) {
            if candidate.path.section != section {
                section = candidate.path.section
                candidatesBefore = 0
            }
            ranks[candidate.key] = candidate.path.row - candidatesBefore
            candidatesBefore += 1
        }
        return ranks
    }

    /// The positions of a longest strictly increasing subsequence of `values`.
    static func longestIncreasingRun(_ values: [Int]) -> Set<Int> {
        var tails: [Int] = []  // positions in `values` ending the best run of each length
        var previous = [Int](repeating: -1, count: values.count)
        for (position, value) in values.enumerated() {
            var low = 0
            var high = tails.count
            while low < high {
                let middle = (low + high) / 2
                if values[tails[middle]] < value { low = middle + 1 } else { high = middle }
            }
            if low > 0 { previous[position] = tails[low - 1] }
            if low == tails.count { tails.append(position) } else { tails[low] = position }
        }
        var kept = Set<Int>()
        var position = tails.last ?? -1
        while position >= 0 {
            kept.insert(position)
            position = previous[position]
        }
        return kept
    }
}
