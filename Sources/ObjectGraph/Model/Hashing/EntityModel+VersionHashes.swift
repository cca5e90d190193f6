import Foundation

/// Core Data's version hashes, computed from a model exactly as Apple's framework does, so a
/// store's `NSStoreModelVersionHashes` can be checked against a model.
///
/// The recipe (`research/coredata-store-format.md` §9, verified against the hashes Apple stored
/// in real stores): every hash is SHA-256; integers are little-endian.
/// - property: `name ‖ uint16(optional 1 | transient 2 | readOnly 4) ‖ versionHashModifier`
/// - attribute: `P ‖ int32(NSAttributeType) ‖ 0x01 if external storage ‖ 0x01 if preserved after
///   deletion`
/// - relationship: `P ‖ destination ‖ inverse (unless self-inverse) ‖ uint32(maxCount) ‖
///   uint32(minCount) ‖ uint16(1) if ordered`
/// - entity: `name ‖ uint8(abstract) ‖ E(parent) ‖ hashes of the persistent properties including
///   inherited ones, by name ‖ versionHashModifier ‖ uniqueness constraints joined by "." and
///   sorted`
extension EntityModel {
    /// The version hash of every entity, keyed by entity name: 32 bytes each, equal to the ones
    /// Apple's Core Data stores in `NSStoreModelVersionHashes`.
    ///
    /// ```swift
    /// let hashes = model.entityVersionHashes
    /// print(hashes["Student"]?.base64EncodedString() ?? "")
    /// ```
    ///
    /// Each property and each entity is hashed once, and each entity's inherited properties come
    /// from its parent's, so the work is linear in what the hashes cover, however deep the
    /// hierarchy.
    public var entityVersionHashes: [String: Data] {
        let graph = InheritanceGraph(entities)
        let hashes = VersionHasher(graph).hashes()
        var result: [String: Data] = [:]
        for (entity, hash) in zip(graph.nodes, hashes) { result[entity.name] = hash }
        return result
    }

    /// The version hash of one entity; its ancestors are looked up in the model by name.
    public func versionHash(of entity: Entity) -> Data {
        let nodes = lineage(of: entity)
        var indexByName: [String: Int] = [:]
        for (index, node) in nodes.enumerated() { indexByName[node.name] = index }
        let parents = nodes.map { node -> Int? in
            parent(of: node).flatMap { indexByName[$0.name] }
        }
        let graph = InheritanceGraph(nodes: nodes, parents: parents, indexByName: indexByName)
        return VersionHasher(graph).hashes().first ?? Data()
    }

    /// Core Data's `NSStoreModelVersionHashesDigest`: base64 of SHA-512 over the name-and-hash
    /// pairs in name order.
    public var versionHashesDigest: String {
        var data = Data()
        for (name, hash) in entityVersionHashes.sorted(by: { $0.key.utf8Less(than: $1.key) }) {
            data.appendUTF8(name)
            data.append(hash)
        }
        return Digest.sha512(data).base64EncodedString()
    }

    /// Core Data's `NSStoreModelVersionChecksumKey`: base64 of SHA-256 over the entity hashes
    /// in name order.
    public var versionChecksum: String {
        var data = Data()
        for (_, hash) in entityVersionHashes.sorted(by: { $0.key.utf8Less(than: $1.key) }) {
            data.append(hash)
        }
        return Digest.sha256(data).base64EncodedString()
    }
}

extension String {
    /// Case-sensitive code-unit order, as Core Data sorts property and entity names.
    func utf8Less(than other: String) -> Bool {
        self.utf8.lexicographicallyPrecedes(other.utf8)
    }
}
