import Foundation

/// Computes the version hashes of a set of entities in time linear in what is hashed: each
/// property is hashed once, each entity once, and an entity's name-ordered list of inherited
/// properties is merged from its parent's list instead of being gathered and sorted again.
///
/// An entity's hash takes its parent's hash and the hashes of all its persistent properties,
/// own and inherited, in name order (ties — only in broken models that redeclare a name — in
/// lineage order, nearest first, attributes before relationships). Everything runs in loops,
/// never in recursion, so a hierarchy thousands of entities deep does not exhaust the stack.
///
/// Broken hierarchies hash as the recursive definition does: walking up from the entities in
/// order, the parent link that closes a cycle contributes no parent hash, and an entity that
/// is its own parent hashes once without and then once with its own hash as parent hash.
struct VersionHasher {
    /// The entities and their links.
    private let graph: InheritanceGraph

    /// Where an entity's parent hash comes from.
    private enum ParentHash {
        /// No parent hash: no parent, or the link that closes a cycle.
        case none
        /// The hash of this parent.
        case parent(Int)
        /// The entity is its own parent: its hash without, then with itself as parent.
        case itself
    }

    /// Hashes the entities of `graph`.
    init(_ graph: InheritanceGraph) {
        self.graph = graph
    }

    /// The version hash of every entity, in the order of the graph's nodes.
    func hashes() -> [Data] {
        let nodes = graph.nodes
        let parents = graph.parents
        let cycles = graph.cycles
        let cycleOf = graph.cycleOf
        let table = PropertyTable(nodes)
        let sources = parentHashSources()
        var positions: [Int: Int] = [:]
        for cycle in cycles {
            for (position, member) in cycle.enumerated() { positions[member] = position }
        }
        var cycleEntries: [Int: [Int32]] = [:]
        // The hash dependencies form a forest: children of each entity, its roots, and how
        // many children need the entity's property list (cycle members build their own).
        var children = [[Int]](repeating: [], count: nodes.count)
        var roots: [Int] = []
        var pendingLists = [Int](repeating: 0, count: nodes.count)
        for node in nodes.indices {
            if case .parent(let parent) = sources[node] {
                children[parent].append(node)
                if cycleOf[node] == nil { pendingLists[parent] += 1 }
            } else {
                roots.append(node)
            }
        }
        let sizes = subtreeSizes(children: children, roots: roots)
        var lists = [[Int32]?](repeating: nil, count: nodes.count)
        var hashes = [Data](repeating: Data(), count: nodes.count)
        // Depth first, the largest subtree of each entity last: its parent's list is released
        // before descending into it, so only a logarithmic number of lists is kept at once.
        var stack = roots
        while let node = stack.popLast() {
            let list: [Int32]
            if let cycle = cycleOf[node] {
                let entries =
                    cycleEntries[cycle]
                    ?? table.cycleEntries(cycles[cycle], positions: positions)
                cycleEntries[cycle] = entries
                list = table.cycleList(
                    entries, start: positions[node] ?? 0, count: cycles[cycle].count,
                    positions: positions)
            } else if let parent = parents[node], let inherited = lists[parent] {
                list = table.merged(table.ownList(node), inherited)
                pendingLists[parent] -= 1
                if pendingLists[parent] == 0 { lists[parent] = nil }
            } else {
                list = table.ownList(node)
            }
            let append: (inout [UInt8]) -> Void = { table.appendHashes(of: list, to: &$0) }
            switch sources[node] {
            case .none:
                hashes[node] = VersionHashRecipe.entity(
                    nodes[node], parentHash: nil, propertyHashes: append)
            case .parent(let parent):
                hashes[node] = VersionHashRecipe.entity(
                    nodes[node], parentHash: hashes[parent], propertyHashes: append)
            case .itself:
                let inner = VersionHashRecipe.entity(
                    nodes[node], parentHash: nil, propertyHashes: append)
                hashes[node] = VersionHashRecipe.entity(
                    nodes[node], parentHash: inner, propertyHashes: append)
            }
            if pendingLists[node] > 0 { lists[node] = list }
            let next = children[node]
            guard let heaviest = next.indices.max(by: { sizes[next[$0]] < sizes[next[$1]] })
            else { continue }
            stack.append(next[heaviest])
            for (offset, child) in next.enumerated() where offset != heaviest {
                stack.append(child)
            }
        }
        return hashes
    }

    /// For each entity where its parent hash comes from. Walking up from the entities in order,
    /// as the recursive definition does, the last member reached on a cycle has no parent hash
    /// (its parent is being hashed), unless it is its own parent.
    private func parentHashSources() -> [ParentHash] {
        var sources = graph.parents.map { parent in parent.map(ParentHash.parent) ?? .none }
        for cycle in graph.cycles {
            guard let closer = cycle.last else { continue }
            sources[closer] = cycle.count == 1 ? .itself : .none
        }
        return sources
    }

    /// The number of entities in each entity's subtree of the dependency forest.
    private func subtreeSizes(children: [[Int]], roots: [Int]) -> [Int] {
        var order: [Int] = []
        order.reserveCapacity(children.count)
        var stack = roots
        while let node = stack.popLast() {
            order.append(node)
            stack.append(contentsOf: children[node])
        }
        var sizes = [Int](repeating: 1, count: children.count)
        for node in order.reversed() {
            for child in children[node] { sizes[node] += sizes[child] }
        }
        return sizes
    }
}
