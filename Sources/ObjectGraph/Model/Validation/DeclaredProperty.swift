/// Any property of an entity (attribute, relationship or fetched property), seen the way the
/// name rules and the constraint and index rules need it.
enum DeclaredProperty {
    case attribute(Attribute)
    case relationship(Relationship)
    case fetched(FetchedProperty)

    /// The property name.
    var name: String {
        switch self {
        case .attribute(let attribute): return attribute.name
        case .relationship(let relationship): return relationship.name
        case .fetched(let fetched): return fetched.name
        }
    }

    /// Where it was declared.
    var location: SourceLocation? {
        switch self {
        case .attribute(let attribute): return attribute.location
        case .relationship(let relationship): return relationship.location
        case .fetched(let fetched): return fetched.location
        }
    }

    /// Why a uniqueness constraint or an index cannot use it, or `nil` when it can: stores keep
    /// only non-transient attributes and to-one relationships in columns.
    var unstorableReason: String? {
        switch self {
        case .attribute(let attribute):
            return attribute.isTransient ? "a transient attribute" : nil
        case .relationship(let relationship):
            if relationship.isToMany { return "a to-many relationship" }
            return relationship.isTransient ? "a transient relationship" : nil
        case .fetched:
            return "a fetched property"
        }
    }

    /// The properties declared on `entity` itself, attributes first, in file order.
    static func declared(in entity: Entity) -> [DeclaredProperty] {
        entity.attributes.map(DeclaredProperty.attribute)
            + entity.relationships.map(DeclaredProperty.relationship)
            + entity.fetchedProperties.map(DeclaredProperty.fetched)
    }
}

extension ModelValidator {
    /// The property named `name` of `entity`, declared on it or inherited (nearest first).
    func inheritedProperty(named name: String, in entity: Entity) -> DeclaredProperty? {
        let find = { (member: Entity) -> DeclaredProperty? in
            if let attribute = member.attribute(named: name) { return .attribute(attribute) }
            if let relationship = member.relationship(named: name) {
                return .relationship(relationship)
            }
            return member.fetchedProperties.first { $0.name == name }.map(DeclaredProperty.fetched)
        }
        if let declarer = soleDeclarer(of: name, inLineageOf: entity) {
            return declarer.flatMap(find)
        }
        return firstInLineage(of: entity, find)
    }

    /// The relationship named `name` of `entity`, declared on it or inherited (nearest first).
    func inheritedRelationship(named name: String, in entity: Entity) -> Relationship? {
        if let declarer = soleDeclarer(of: name, inLineageOf: entity) {
            return declarer?.relationship(named: name)
        }
        return firstInLineage(of: entity) { $0.relationship(named: name) }
    }

    /// Whether the entity named `name` is `entity` or one of its ancestors.
    func isSelfOrAncestor(_ name: String, of entity: Entity) -> Bool {
        if entity.name == name { return true }
        guard let index = graphIndex(of: entity) else {
            return firstInLineage(of: entity) { $0.name == name ? true : nil } ?? false
        }
        guard let ancestor = graph.index(of: name) else { return false }
        return graph.isInLineage(ancestor, of: index)
    }

    /// The first non-nil `match` walking from `entity` up its parents; stops at a missing parent
    /// or a cycle. Walks only as far as needed, so shallow answers stay cheap in deep models.
    func firstInLineage<T>(of entity: Entity, _ match: (Entity) -> T?) -> T? {
        var current = entity
        var seen: Set<String> = [entity.name]
        while true {
            if let found = match(current) { return found }
            guard let parent = model.parent(of: current), seen.insert(parent.name).inserted else {
                return nil
            }
            current = parent
        }
    }

    /// In constant time, when one entity declares `name`: that entity (`.some`) if it is in the
    /// lineage of `entity`, `.some(nil)` if it is not or nobody declares `name`. `nil` when only
    /// a walk up the lineage can tell (several declarers, or a repeated entity name).
    private func soleDeclarer(of name: String, inLineageOf entity: Entity) -> Entity?? {
        guard let index = graphIndex(of: entity) else { return nil }
        guard let declarers = declaringNodes[name] else { return .some(nil) }
        guard declarers.count == 1, let declarer = declarers.first else { return nil }
        return graph.isInLineage(declarer, of: index) ? graph.nodes[declarer] : .some(nil)
    }

    /// The index of `entity` in ``graph``, or `nil` when it is a repeated declaration of a name
    /// (the graph holds each name's first).
    private func graphIndex(of entity: Entity) -> Int? {
        guard let index = graph.index(of: entity.name) else { return nil }
        if repeatedEntityNames.contains(entity.name) && graph.nodes[index] != entity { return nil }
        return index
    }
}
