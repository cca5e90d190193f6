/// A model's inheritance links as indexes, with its cycles and a numbering that answers "is
/// this entity in that one's lineage?" in constant time. Built in time linear in the model,
/// without recursion, however deep the hierarchy.
///
/// ```swift
/// let graph = InheritanceGraph(model.entities)
/// graph.isInLineage(graph.index(of: "Person")!, of: graph.index(of: "Student")!)
/// ```
struct InheritanceGraph {
    /// The entities, each name once (the first declaration of a repeated name).
    let nodes: [Entity]
    /// Each entity's parent among ``nodes``, or `nil` (no parent, or an unknown one).
    let parents: [Int?]
    /// The inheritance cycles. Each is listed from the member first reached when walking up
    /// from the entities in order to the member whose parent closes it.
    let cycles: [[Int]]
    /// Each entity's cycle (an index into ``cycles``), if it is on one.
    let cycleOf: [Int?]

    private let indexByName: [String: Int]
    /// Depth-first numbering of the forest that the links form once each cycle's closing
    /// link is cut: an entity's subtree is `entry[e]...exit[e]`.
    private let entry: [Int]
    private let exit: [Int]
    /// The cycle of the root each entity's walk up ends at, if that root is on a cycle.
    private let rootCycle: [Int?]

    /// The graph of `entities` (a model's, in file order).
    init(_ entities: [Entity]) {
        var nodes: [Entity] = []
        var indexByName: [String: Int] = [:]
        for entity in entities where indexByName[entity.name] == nil {
            indexByName[entity.name] = nodes.count
            nodes.append(entity)
        }
        let parents = nodes.map { entity -> Int? in entity.parentName.flatMap { indexByName[$0] } }
        self.init(nodes: nodes, parents: parents, indexByName: indexByName)
    }

    /// The graph of `nodes` whose parents are `parents`; names are looked up in `indexByName`.
    init(nodes: [Entity], parents: [Int?], indexByName: [String: Int]) {
        self.nodes = nodes
        self.parents = parents
        self.indexByName = indexByName
        let cycles = Self.findCycles(parents)
        var cycleOf = [Int?](repeating: nil, count: nodes.count)
        var isCut = [Bool](repeating: false, count: nodes.count)
        for (number, cycle) in cycles.enumerated() {
            for member in cycle { cycleOf[member] = number }
            if let closer = cycle.last { isCut[closer] = true }
        }
        self.cycles = cycles
        self.cycleOf = cycleOf
        var children = [[Int]](repeating: [], count: nodes.count)
        var roots: [Int] = []
        for node in nodes.indices {
            if let parent = parents[node], !isCut[node] {
                children[parent].append(node)
            } else {
                roots.append(node)
            }
        }
        var entry = [Int](repeating: 0, count: nodes.count)
        var exit = [Int](repeating: 0, count: nodes.count)
        var rootCycle = [Int?](repeating: nil, count: nodes.count)
        var clock = 0
        for root in roots {
            // (node, whether its children were pushed)
            var stack: [(Int, Bool)] = [(root, false)]
            while let (node, expanded) = stack.popLast() {
                if expanded {
                    exit[node] = clock - 1
                    continue
                }
                entry[node] = clock
                clock += 1
                rootCycle[node] = cycleOf[root]
                stack.append((node, true))
                for child in children[node] { stack.append((child, false)) }
            }
        }
        self.entry = entry
        self.exit = exit
        self.rootCycle = rootCycle
    }

    /// The index of the entity named `name`.
    func index(of name: String) -> Int? { indexByName[name] }

    /// Whether `ancestor` is `entity` or in its lineage (the entities its parent links reach).
    func isInLineage(_ ancestor: Int, of entity: Int) -> Bool {
        if entry[ancestor] <= entry[entity] && exit[entity] <= exit[ancestor] { return true }
        guard let cycle = cycleOf[ancestor] else { return false }
        return rootCycle[entity] == cycle
    }

    /// The cycles of `parents`, walking up from each node in order: a node first reached by
    /// an earlier walk is finished; reaching one on the current walk closes a cycle.
    private static func findCycles(_ parents: [Int?]) -> [[Int]] {
        var cycles: [[Int]] = []
        var position = [Int?](repeating: nil, count: parents.count)
        var finished = [Bool](repeating: false, count: parents.count)
        for start in parents.indices where !finished[start] {
            var path: [Int] = []
            var current = start
            while true {
                position[current] = path.count
                path.append(current)
                guard let parent = parents[current], !finished[parent] else { break }
                if let index = position[parent] {
                    cycles.append(Array(path[index...]))
                    break
                }
                current = parent
            }
            for node in path {
                finished[node] = true
                position[node] = nil
            }
        }
        return cycles
    }
}
