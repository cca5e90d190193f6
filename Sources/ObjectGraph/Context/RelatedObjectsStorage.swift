/// What ``RelatedSet`` and ``RelatedList`` hold: the live view of an object's to-many
/// relationship, or, for one made from elements, the elements themselves.
struct RelatedObjectsStorage<Element: ManagedObject> {
    private enum Kind {
        case live(ManagedObject, TypedProperty)
        case detached([Element])
    }

    private var kind: Kind

    /// The live view of `owner`'s `property`.
    init(_ owner: ManagedObject, _ property: TypedProperty) {
        kind = .live(owner, property)
    }

    /// `elements`, later duplicates dropped (by identity).
    init(_ elements: some Sequence<Element>) {
        var unique: [Element] = []
        for element in elements where !unique.contains(where: { $0 === element }) {
            unique.append(element)
        }
        kind = .detached(unique)
    }

    /// The owner and property of a live view.
    var live: (owner: ManagedObject, property: TypedProperty)? {
        guard case .live(let owner, let property) = kind else { return nil }
        return (owner, property)
    }

    /// The members, in order.
    var members: [Element] {
        switch kind {
        case .live(let owner, let property): return owner.relatedObjects(property, as: Element.self)
        case .detached(let elements): return elements
        }
    }

    /// Replaces the elements of a detached storage (a live view's are the relationship's).
    mutating func setDetached(_ elements: [Element]) {
        kind = .detached(elements)
    }

    /// Whether this is the live view of `owner`'s `property`.
    func isLiveView(of owner: ManagedObject, _ property: TypedProperty) -> Bool {
        guard let live else { return false }
        return live.owner === owner && live.property === property
    }
}
