import Foundation

/// The persistent properties of a set of entities, each hashed once, with the name-ordered
/// lists the entity hashes take.
///
/// A list is an array of indexes into the table. Names compare through their rank among all
/// names (code-unit order), so merging lists compares integers, not strings.
struct PropertyTable {
    /// The 32-byte hashes, one after another, in table order.
    private var hashBytes: [UInt8] = []
    /// Each entry's name rank.
    private var ranks: [Int32] = []
    /// The entity that declares each entry.
    private var owners: [Int32] = []
    /// Each entity's own entries, sorted by name; ties keep declaration order.
    private var ownLists: [[Int32]] = []

    /// Hashes the persistent properties `entities` declare.
    init(_ entities: [Entity]) {
        var names: [String] = []
        for (index, entity) in entities.enumerated() {
            for (name, hash) in VersionHashRecipe.declaredProperties(of: entity) {
                names.append(name)
                owners.append(Int32(truncatingIfNeeded: index))
                hashBytes.append(contentsOf: hash)
            }
        }
        let distinct = Set(names).sorted { $0.utf8Less(than: $1) }
        var rankOf: [String: Int32] = [:]
        for (rank, name) in distinct.enumerated() { rankOf[name] = Int32(rank) }
        ranks = names.map { rankOf[$0] ?? 0 }
        ownLists = [[Int32]](repeating: [], count: entities.count)
        for entry in ranks.indices {
            ownLists[Int(owners[entry])].append(Int32(truncatingIfNeeded: entry))
        }
        for entity in ownLists.indices {
            ownLists[entity].sort { (ranks[Int($0)], $0) < (ranks[Int($1)], $1) }
        }
    }

    /// The entries `entity` declares itself, in name order.
    func ownList(_ entity: Int) -> [Int32] { ownLists[entity] }

    /// `own` and `inherited` merged in name order; on equal names `own` (nearer) comes first.
    func merged(_ own: [Int32], _ inherited: [Int32]) -> [Int32] {
        var result: [Int32] = []
        result.reserveCapacity(own.count + inherited.count)
        var left = 0
        var right = 0
        while left < own.count && right < inherited.count {
            if ranks[Int(own[left])] <= ranks[Int(inherited[right])] {
                result.append(own[left])
                left += 1
            } else {
                result.append(inherited[right])
                right += 1
            }
        }
        result.append(contentsOf: own[left...])
        result.append(contentsOf: inherited[right...])
        return result
    }

    /// The entries of every member of an inheritance cycle in name order, equal names in the
    /// order of `positions` (each member's place on the cycle).
    func cycleEntries(_ cycle: [Int], positions: [Int: Int]) -> [Int32] {
        let entries = cycle.flatMap { ownLists[$0] }
        return entries.sorted { lhs, rhs in
            let left = (ranks[Int(lhs)], positions[Int(owners[Int(lhs)])] ?? 0, lhs)
            let right = (ranks[Int(rhs)], positions[Int(owners[Int(rhs)])] ?? 0, rhs)
            return left < right
        }
    }

    /// The list of the cycle member at `start`: `entries` (from ``cycleEntries(_:positions:)``)
    /// with equal names reordered to that member's lineage, which runs from it around the
    /// cycle. Only names several members declare (a broken model) are reordered.
    func cycleList(
        _ entries: [Int32], start: Int, count: Int, positions: [Int: Int]
    ) -> [Int32] {
        var result = entries
        var low = 0
        while low < result.count {
            var high = low + 1
            while high < result.count && ranks[Int(result[high])] == ranks[Int(result[low])] {
                high += 1
            }
            if high - low > 1 {
                func distance(_ entry: Int32) -> Int {
                    ((positions[Int(owners[Int(entry)])] ?? 0) - start + count) % count
                }
                result[low..<high].sort { (distance($0), $0) < (distance($1), $1) }
            }
            low = high
        }
        return result
    }

    /// Appends the hashes of `list`'s entries to `bytes`.
    func appendHashes(of list: [Int32], to bytes: inout [UInt8]) {
        bytes.reserveCapacity(bytes.count + list.count * 32)
        hashBytes.withUnsafeBufferPointer { all in
            for entry in list {
                let start = Int(entry) * 32
                bytes.append(contentsOf: all[start..<start + 32])
            }
        }
    }
}
