/// Which source entity each destination entity's objects come from, by renaming identifier
/// (see ``RenamingMatcher``).
struct EntityCorrespondence {
    /// The source model.
    let source: EntityModel
    /// The destination model.
    let destination: EntityModel
    /// The source entity's name for each destination entity that has one.
    let sourceNameByDestination: [String: String]
    /// The destination entity's name for each source entity that has one.
    let destinationNameBySource: [String: String]

    /// Matches the entities of the two models.
    init(source: EntityModel, destination: EntityModel) {
        self.source = source
        self.destination = destination
        let pairs = RenamingMatcher.match(
            destinations: destination.entities.map(Self.element),
            sources: source.entities.map(Self.element))
        var forward: [String: String] = [:]
        var backward: [String: String] = [:]
        for (destinationIndex, sourceIndex) in pairs {
            let destinationName = destination.entities[destinationIndex].name
            let sourceName = source.entities[sourceIndex].name
            forward[destinationName] = sourceName
            backward[sourceName] = destinationName
        }
        sourceNameByDestination = forward
        destinationNameBySource = backward
    }

    /// The source entity `destinationEntity`'s objects come from.
    func sourceEntity(for destinationEntity: Entity) -> Entity? {
        sourceNameByDestination[destinationEntity.name].flatMap { source.entity(named: $0) }
    }

    private static func element(_ entity: Entity) -> RenamingMatcher.Element {
        RenamingMatcher.Element(name: entity.name, renamingIdentifier: entity.renamingIdentifier)
    }
}
