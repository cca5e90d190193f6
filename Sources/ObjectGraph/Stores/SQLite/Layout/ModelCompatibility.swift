import Foundation

/// How a store's entity version hashes compare with a model's: the entities whose hashes
/// differ, those only the model has, and those only the store has. Compatible when all three
/// are empty — the check Core Data makes before it opens a store without migration.
///
/// ```swift
/// let check = metadata.compatibility(with: model)
/// if !check.isCompatible { print(check) }
/// // the store does not match the model: changed Person; not in the store: Pet
/// ```
public struct ModelCompatibility: Sendable, Hashable, CustomStringConvertible {
    /// Entities in both whose hashes differ, sorted by name.
    public let changedEntities: [String]
    /// Entities of the model the store has no hash for, sorted by name.
    public let entitiesMissingInStore: [String]
    /// Entities the store has a hash for but the model lacks, sorted by name.
    public let entitiesMissingInModel: [String]

    /// Compares two sets of version hashes keyed by entity name.
    public init(storeHashes: [String: Data], modelHashes: [String: Data]) {
        changedEntities = modelHashes.compactMap { name, hash in
            guard let stored = storeHashes[name], stored != hash else { return nil }
            return name
        }.sorted()
        entitiesMissingInStore = modelHashes.keys.filter { storeHashes[$0] == nil }.sorted()
        entitiesMissingInModel = storeHashes.keys.filter { modelHashes[$0] == nil }.sorted()
    }

    /// Whether the store can be opened with the model as it is.
    public var isCompatible: Bool {
        changedEntities.isEmpty && entitiesMissingInStore.isEmpty
            && entitiesMissingInModel.isEmpty
    }

    /// A one-line summary naming the entities.
    public var description: String {
        guard !isCompatible else { return "the store matches the model" }
        var parts: [String] = []
        if !changedEntities.isEmpty {
            parts.append("changed " + changedEntities.joined(separator: ", "))
        }
        if !entitiesMissingInStore.isEmpty {
            parts.append("not in the store: " + entitiesMissingInStore.joined(separator: ", "))
        }
        if !entitiesMissingInModel.isEmpty {
            parts.append("not in the model: " + entitiesMissingInModel.joined(separator: ", "))
        }
        return "the store does not match the model: " + parts.joined(separator: "; ")
    }
}
