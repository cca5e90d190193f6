/// Entity hierarchies of the source and destination models, computed once per entity: the
/// root of an entity (its table) and the names of an entity and its subentities.
struct MigrationHierarchy {
    private var roots: [String: Entity] = [:]
    private var families: [String: Set<String>] = [:]

    /// The root entity of `name` in `model` (itself when it has no parent).
    mutating func root(of name: String, in model: EntityModel, tag: String) -> Entity? {
        let cacheKey = tag + name
        if let root = roots[cacheKey] { return root }
        guard let entity = model.entity(named: name) else { return nil }
        let root = model.lineage(of: entity).last ?? entity
        roots[cacheKey] = root
        return root
    }

    /// `name` and the names of every entity below it in `model`.
    mutating func family(of name: String, in model: EntityModel, tag: String) -> Set<String> {
        let cacheKey = tag + name
        if let family = families[cacheKey] { return family }
        var family: Set<String> = [name]
        var pending = [name]
        while let next = pending.popLast() {
            for entity in model.entities where entity.parentName == next {
                if family.insert(entity.name).inserted { pending.append(entity.name) }
            }
        }
        families[cacheKey] = family
        return family
    }
}
