import Foundation

/// The depth-first search behind ``MigrationPlanner/plan(from:to:versions:mappingModels:declaredSteps:infers:)``:
/// from each version, the edges in order of preference, each position tried once.
struct MigrationPathSearch {
    /// The versions in order, with the destination appended when it is not among them.
    private let versions: [ModelVersion]
    private let hashes: [[String: Data]]
    private let source: ModelVersion
    private let sourceHashes: [String: Data]
    /// The source's position; `nil` when it is not one of the versions.
    private let sourceIndex: Int?
    private let destinationIndex: Int
    private let mappingModels:
        [(mapping: MappingModel, source: [String: Data], destination: [String: Data])]
    private let declaredSteps:
        [(step: MigrationStep, source: [String: Data], destination: [String: Data])]
    private let infers: Bool
    /// Positions from which nothing leads to the destination.
    private var deadEnds = Set<Int>()
    /// The first inference that failed, reported when no path is found.
    private(set) var inferenceFailure: MigrationError?

    /// Prepares the search.
    init(
        source: ModelVersion, destination: ModelVersion, versions: [ModelVersion],
        mappingModels: [MappingModel], declaredSteps: [MigrationStep], infers: Bool
    ) {
        var all = versions
        if !all.contains(where: { $0.name == destination.name }) { all.append(destination) }
        self.versions = all
        hashes = all.map(\.model.entityVersionHashes)
        self.source = source
        sourceHashes = source.model.entityVersionHashes
        sourceIndex = all.firstIndex { $0.name == source.name }
        destinationIndex = all.firstIndex { $0.name == destination.name } ?? all.count - 1
        self.mappingModels = mappingModels.map {
            ($0, $0.sourceModel.entityVersionHashes, $0.destinationModel.entityVersionHashes)
        }
        self.declaredSteps = declaredSteps.map {
            ($0, $0.source.model.entityVersionHashes, $0.destination.model.entityVersionHashes)
        }
        self.infers = infers
    }

    /// The steps from the source to the destination, or `nil` when none lead there.
    mutating func run() -> [MigrationStep]? {
        steps(from: sourceIndex)
    }

    /// The steps from `position` (`nil`: the source outside the versions).
    private mutating func steps(from position: Int?) -> [MigrationStep]? {
        if position == destinationIndex { return [] }
        if let position, deadEnds.contains(position) { return nil }
        let current = position.map { versions[$0] } ?? source
        let currentHashes = position.map { hashes[$0] } ?? sourceHashes
        var edges: [(Int, MigrationStep)] = []
        let declared = declaredSteps.filter {
            $0.step.source.name == current.name || $0.source == currentHashes
        }
        edges += furthestFirst(
            from: position,
            declared.compactMap { entry in
                target(
                    named: entry.step.destination.name, hashes: entry.destination, from: position
                )
                .map { ($0, entry.step) }
            })
        let mapped = mappingModels.filter {
            $0.mapping.sourceVersionName == current.name || $0.source == currentHashes
        }
        edges += furthestFirst(
            from: position,
            mapped.compactMap { entry in
                target(
                    named: entry.mapping.destinationVersionName, hashes: entry.destination,
                    from: position
                )
                .map {
                    (
                        $0,
                        MigrationStep(
                            source: current, destination: versions[$0], mapping: entry.mapping)
                    )
                }
            })
        for (index, step) in edges {
            if let rest = steps(from: index) { return [step] + rest }
        }
        if infers, let next = nextPosition(after: position) {
            do {
                let mapping = try MappingModel.inferred(from: current, to: versions[next])
                let step = MigrationStep(
                    source: current, destination: versions[next], mapping: mapping)
                if let rest = steps(from: next) { return [step] + rest }
            } catch {
                if inferenceFailure == nil { inferenceFailure = error }
            }
        }
        if let position { deadEnds.insert(position) }
        return nil
    }

    /// The position of a step's destination when it lies ahead of `position`, toward the
    /// destination: by version name, else the furthest ahead with the same entity hashes.
    private func target(named name: String?, hashes wanted: [String: Data], from position: Int?)
        -> Int?
    {
        if let name, let index = versions.firstIndex(where: { $0.name == name }) {
            return isAhead(index, of: position) ? index : nil
        }
        let matching = versions.indices.filter { hashes[$0] == wanted && isAhead($0, of: position) }
        return matching.max { distance($0, from: position) < distance($1, from: position) }
    }

    /// Whether `index` lies after `position` and not beyond the destination, in the direction of
    /// travel. Everything lies ahead of a source outside the versions.
    private func isAhead(_ index: Int, of position: Int?) -> Bool {
        guard let position else { return true }
        if destinationIndex > position { return index > position && index <= destinationIndex }
        return index < position && index >= destinationIndex
    }

    private func distance(_ index: Int, from position: Int?) -> Int {
        guard let position else { return versions.count - abs(destinationIndex - index) }
        return abs(index - position)
    }

    /// The position one version toward the destination (from outside the versions: the
    /// destination itself).
    private func nextPosition(after position: Int?) -> Int? {
        guard let position else { return destinationIndex }
        return destinationIndex > position ? position + 1 : position - 1
    }

    /// The edges, the one that goes furthest first; among equals, in the order given.
    private func furthestFirst(from position: Int?, _ edges: [(Int, MigrationStep)])
        -> [(Int, MigrationStep)]
    {
        edges.enumerated()
            .sorted {
                let (first, second) = (
                    distance($0.element.0, from: position), distance($1.element.0, from: position)
                )
                return first != second ? first > second : $0.offset < $1.offset
            }
            .map(\.element)
    }
}
