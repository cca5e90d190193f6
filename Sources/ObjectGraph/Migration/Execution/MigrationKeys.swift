/// Gives every destination object its key once all are created: the key of the source it was
/// first made from when its entity keeps its table (the destination's hierarchy root is the
/// source's root, or was renamed from it) and no object of that table took the key yet; else
/// the next key after the largest in its table. So objects keep their URIs wherever their
/// entity keeps its table, and keys stay unique per table.
struct MigrationKeys {
    let manager: MigrationManager

    func assign() {
        var hierarchy = manager.hierarchy
        defer { manager.hierarchy = hierarchy }
        let source = manager.mapping.sourceModel
        let destination = manager.mapping.destinationModel
        var used: [String: Set<Int64>] = [:]
        var largest: [String: Int64] = [:]
        var keyless: [(MigrationObject, table: String)] = []
        var claimed: Set<Claim> = []
        for object in manager.destinationObjects {
            let table =
                hierarchy.root(of: object.entityName, in: destination, tag: "d")?.name
                ?? object.entityName
            if let origin = manager.originByDestination[ObjectIdentifier(object)],
                claimed.insert(Claim(source: ObjectIdentifier(origin), table: table)).inserted,
                let sourceRoot = hierarchy.root(of: origin.entityName, in: source, tag: "s"),
                let destinationRoot = hierarchy.root(
                    of: object.entityName, in: destination, tag: "d"),
                destinationRoot.name == sourceRoot.name
                    || destinationRoot.renamingIdentifier == sourceRoot.name,
                used[table, default: []].insert(origin.key).inserted
            {
                object.key = origin.key
                largest[table] = max(largest[table] ?? 0, origin.key)
            } else {
                keyless.append((object, table))
            }
        }
        for (object, table) in keyless {
            var next = (largest[table] ?? 0) + 1
            while used[table, default: []].contains(next) { next += 1 }
            used[table, default: []].insert(next)
            largest[table] = next
            object.key = next
        }
    }

    /// A source's key, taken in one table.
    private struct Claim: Hashable {
        let source: ObjectIdentifier
        let table: String
    }
}
