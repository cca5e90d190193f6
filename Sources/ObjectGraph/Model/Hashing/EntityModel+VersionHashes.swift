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
    public var entityVersionHashes: [String: Data] {
        var cache: [String: Data] = [:]
        for entity in entities {
            _ = versionHash(of: entity, cache: &cache, visiting: [])
        }
        return cache
    }

    /// The version hash of one entity.
    public func versionHash(of entity: Entity) -> Data {
        var cache: [String: Data] = [:]
        return versionHash(of: entity, cache: &cache, visiting: [])
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

    private func versionHash(
        of entity: Entity, cache: inout [String: Data], visiting: Set<String>
    ) -> Data {
        if let known = cache[entity.name] { return known }
        var data = Data()
        data.appendUTF8(entity.name)
        data.append(entity.isAbstract ? 1 : 0)
        if let parent = parent(of: entity), !visiting.contains(parent.name) {
            data.append(
                versionHash(of: parent, cache: &cache, visiting: visiting.union([entity.name])))
        }
        var properties: [(name: String, hash: Data)] = []
        for ancestor in lineage(of: entity) {
            for attribute in ancestor.attributes where !attribute.isTransient {
                properties.append((attribute.name, attributeHash(attribute)))
            }
            for relationship in ancestor.relationships where !relationship.isTransient {
                properties.append(
                    (relationship.name, relationshipHash(relationship, declaredBy: ancestor)))
            }
        }
        properties.sort { $0.name.utf8Less(than: $1.name) }
        for property in properties { data.append(property.hash) }
        if let modifier = entity.versionHashModifier, !modifier.isEmpty {
            data.appendUTF8(modifier)
        }
        let constraints = entity.uniquenessConstraints.map { $0.joined(separator: ".") }
            .sorted { $0.utf8Less(than: $1) }
        for constraint in constraints { data.appendUTF8(constraint) }
        let hash = Digest.sha256(data)
        cache[entity.name] = hash
        return hash
    }

    private func propertyBase(
        name: String, isOptional: Bool, isTransient: Bool, modifier: String?
    ) -> Data {
        var data = Data()
        data.appendUTF8(name)
        let flags: UInt16 = (isOptional ? 1 : 0) | (isTransient ? 2 : 0)
        data.appendLittleEndian(flags)
        if let modifier, !modifier.isEmpty { data.appendUTF8(modifier) }
        return Digest.sha256(data)
    }

    private func attributeHash(_ attribute: Attribute) -> Data {
        var data = propertyBase(
            name: attribute.name, isOptional: attribute.isOptional,
            isTransient: attribute.isTransient, modifier: attribute.versionHashModifier)
        data.appendLittleEndian(attribute.type.coreDataCode)
        if attribute.allowsExternalBinaryDataStorage { data.append(1) }
        if attribute.preservesValueInHistoryOnDeletion { data.append(1) }
        return Digest.sha256(data)
    }

    private func relationshipHash(_ relationship: Relationship, declaredBy owner: Entity) -> Data {
        var data = propertyBase(
            name: relationship.name, isOptional: relationship.isOptional,
            isTransient: relationship.isTransient, modifier: relationship.versionHashModifier)
        data.appendUTF8(relationship.destinationEntityName)
        if let inverse = relationship.inverseName {
            let inverseEntity = relationship.inverseEntityName ?? relationship.destinationEntityName
            let isSelfInverse = inverse == relationship.name && inverseEntity == owner.name
            if !isSelfInverse { data.appendUTF8(inverse) }
        }
        data.appendLittleEndian(UInt32(truncatingIfNeeded: relationship.maxCount))
        data.appendLittleEndian(UInt32(truncatingIfNeeded: relationship.minCount))
        if relationship.isOrdered { data.appendLittleEndian(UInt16(1)) }
        return Digest.sha256(data)
    }
}

extension String {
    /// Case-sensitive code-unit order, as Core Data sorts property and entity names.
    func utf8Less(than other: String) -> Bool {
        self.utf8.lexicographicallyPrecedes(other.utf8)
    }
}
