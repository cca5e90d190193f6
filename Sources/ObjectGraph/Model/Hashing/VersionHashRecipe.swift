import Foundation

/// The byte recipes of Core Data's version hashes, one entity or property at a time (see
/// `EntityModel+VersionHashes.swift` for the layouts). Every hash is SHA-256; integers are
/// little-endian.
enum VersionHashRecipe {
    /// The hash of one attribute: `P ‖ int32(NSAttributeType) ‖ 0x01 if external storage ‖
    /// 0x01 if preserved after deletion`.
    static func attribute(_ attribute: Attribute) -> Data {
        var data = property(
            name: attribute.name, isOptional: attribute.isOptional,
            isTransient: attribute.isTransient, modifier: attribute.versionHashModifier)
        data.appendLittleEndian(attribute.type.coreDataCode)
        if attribute.allowsExternalBinaryDataStorage { data.append(1) }
        if attribute.preservesValueInHistoryOnDeletion { data.append(1) }
        return Digest.sha256(data)
    }

    /// The hash of one relationship declared by `owner`: `P ‖ destination ‖ inverse (unless
    /// self-inverse) ‖ uint32(maxCount) ‖ uint32(minCount) ‖ uint16(1) if ordered`.
    static func relationship(_ relationship: Relationship, declaredBy owner: Entity) -> Data {
        var data = property(
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

    /// The persistent properties `entity` declares itself, with their hashes, attributes first,
    /// in file order.
    static func declaredProperties(of entity: Entity) -> [(name: String, hash: Data)] {
        var result: [(name: String, hash: Data)] = []
        for attribute in entity.attributes where !attribute.isTransient {
            result.append((attribute.name, Self.attribute(attribute)))
        }
        for relationship in entity.relationships where !relationship.isTransient {
            result.append((relationship.name, Self.relationship(relationship, declaredBy: entity)))
        }
        return result
    }

    /// The hash of `entity`: `name ‖ uint8(abstract) ‖ E(parent) ‖ property hashes ‖
    /// versionHashModifier ‖ uniqueness constraints joined by "." and sorted`.
    ///
    /// - Parameters:
    ///   - parentHash: the parent's hash, or `nil` when none goes in.
    ///   - propertyHashes: called once with a buffer to append the 32-byte hashes of the
    ///     persistent properties, own and inherited, in name order.
    static func entity(
        _ entity: Entity, parentHash: Data?, propertyHashes: (inout [UInt8]) -> Void
    ) -> Data {
        var bytes: [UInt8] = Array(entity.name.utf8)
        bytes.append(entity.isAbstract ? 1 : 0)
        if let parentHash { bytes.append(contentsOf: parentHash) }
        propertyHashes(&bytes)
        if let modifier = entity.versionHashModifier, !modifier.isEmpty {
            bytes.append(contentsOf: modifier.utf8)
        }
        let constraints = entity.uniquenessConstraints.map { $0.joined(separator: ".") }
            .sorted { $0.utf8Less(than: $1) }
        for constraint in constraints { bytes.append(contentsOf: constraint.utf8) }
        return Digest.sha256(bytes)
    }

    /// `name ‖ uint16(optional 1 | transient 2) ‖ versionHashModifier`, hashed.
    private static func property(
        name: String, isOptional: Bool, isTransient: Bool, modifier: String?
    ) -> Data {
        var data = Data()
        data.appendUTF8(name)
        let flags: UInt16 = (isOptional ? 1 : 0) | (isTransient ? 2 : 0)
        data.appendLittleEndian(flags)
        if let modifier, !modifier.isEmpty { data.appendUTF8(modifier) }
        return Digest.sha256(data)
    }
}
