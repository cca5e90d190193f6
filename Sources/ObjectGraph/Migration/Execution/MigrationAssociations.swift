/// What one entity mapping made: its destination objects in order, and which source objects
/// each was made from (Core Data's association tables).
struct MigrationAssociations {
    /// The destination objects, in the order associated, each once.
    var destinations: [MigrationObject] = []
    /// The destination objects made from each source object.
    var destinationsBySource: [ObjectIdentifier: [MigrationObject]] = [:]
    /// The source objects each destination object was made from.
    var sourcesByDestination: [ObjectIdentifier: [MigrationObject]] = [:]
    /// The source objects, in the order associated, each once.
    var sources: [MigrationObject] = []

    /// Records that `destination` was made from `source`; returns whether the pair is new.
    @discardableResult
    mutating func associate(_ source: MigrationObject, _ destination: MigrationObject) -> Bool {
        let sourceID = ObjectIdentifier(source)
        let destinationID = ObjectIdentifier(destination)
        var made = destinationsBySource[sourceID] ?? []
        if made.contains(where: { $0 === destination }) { return false }
        if made.isEmpty { sources.append(source) }
        made.append(destination)
        destinationsBySource[sourceID] = made
        var from = sourcesByDestination[destinationID] ?? []
        if from.isEmpty { destinations.append(destination) }
        from.append(source)
        sourcesByDestination[destinationID] = from
        return true
    }
}
