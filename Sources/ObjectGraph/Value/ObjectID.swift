import Foundation
import Synchronization

/// The identity of a managed object: its entity and its key in a store.
///
/// An ID is temporary until the object is first saved, then permanent. Its URI form is Core Data's:
/// `x-coredata://<store UUID>/<Entity>/p<N>` for permanent IDs.
public struct ObjectID: Sendable, Hashable {
    /// The key of an object: a store primary key, or a temporary identifier before the first save.
    public enum Key: Sendable, Hashable {
        /// A permanent primary key (`Z_PK` in a SQLite store).
        case permanent(Int64)
        /// A temporary key, unique in this process, given at insert.
        case temporary(UUID)
    }

    /// The entity and store, shared by every ID of one entity in one store (so an ID is one
    /// reference and a key: 25 bytes, not two strings and a key).
    let space: ObjectIDSpace
    /// The key of the object in its store.
    public let key: Key

    /// The name of the object's entity.
    public var entityName: String { space.entityName }
    /// The UUID of the store that holds the object (empty for temporary IDs).
    public var storeIdentifier: String { space.storeIdentifier }

    /// Creates an ID.
    public init(entityName: String, storeIdentifier: String, key: Key) {
        self.init(space: .named(entityName, storeIdentifier: storeIdentifier), key: key)
    }

    /// Creates an ID in a known space (hot paths keep their spaces).
    init(space: ObjectIDSpace, key: Key) {
        self.space = space
        self.key = key
    }

    /// A cheap, stable order (entity name, then key), for deterministic processing order.
    static func precedes(_ lhs: ObjectID, _ rhs: ObjectID) -> Bool {
        if lhs.entityName != rhs.entityName { return lhs.entityName < rhs.entityName }
        switch (lhs.key, rhs.key) {
        case (.permanent(let a), .permanent(let b)): return a < b
        case (.permanent, .temporary): return true
        case (.temporary, .permanent): return false
        case (.temporary(let a), .temporary(let b)):
            return withUnsafeBytes(of: a.uuid) { x in
                withUnsafeBytes(of: b.uuid) { y in x.lexicographicallyPrecedes(y) }
            }
        }
    }

    /// Equal when key, entity and store are: the key (cheapest, most often different) first.
    public static func == (lhs: ObjectID, rhs: ObjectID) -> Bool {
        lhs.key == rhs.key && lhs.space.matches(rhs.space)
    }

    /// Hashes the key alone, as one word: IDs of different entities or stores with the same
    /// key are told apart by `==`, and identity-map lookups (the hottest use) hash no strings.
    public func hash(into hasher: inout Hasher) {
        switch key {
        case .permanent(let pk): hasher.combine(pk)
        case .temporary:
            // The counter half of ``newTemporaryKey()``'s UUIDs differs between keys.
            hasher.combine(insertionOrder)
        }
    }

    /// Orders IDs by creation: temporary keys by their counter, permanent keys by value.
    var insertionOrder: UInt64 {
        switch key {
        case .permanent(let pk): return UInt64(bitPattern: pk)
        case .temporary(let id):
            let bytes = id.uuid
            return UInt64(bytes.8) << 56 | UInt64(bytes.9) << 48 | UInt64(bytes.10) << 40
                | UInt64(bytes.11) << 32 | UInt64(bytes.12) << 24 | UInt64(bytes.13) << 16
                | UInt64(bytes.14) << 8 | UInt64(bytes.15)
        }
    }

    /// A new temporary key, unique in this process: a per-process random half and a counter
    /// (generating a random UUID per insert costs a system call on Linux).
    static func newTemporaryKey() -> Key {
        let count = temporaryCounter.add(1, ordering: .relaxed).newValue
        let prefix = temporaryPrefix.uuid
        return .temporary(
            UUID(
                uuid: (
                    prefix.0, prefix.1, prefix.2, prefix.3, prefix.4, prefix.5, prefix.6,
                    prefix.7, UInt8(truncatingIfNeeded: count >> 56),
                    UInt8(truncatingIfNeeded: count >> 48), UInt8(truncatingIfNeeded: count >> 40),
                    UInt8(truncatingIfNeeded: count >> 32), UInt8(truncatingIfNeeded: count >> 24),
                    UInt8(truncatingIfNeeded: count >> 16), UInt8(truncatingIfNeeded: count >> 8),
                    UInt8(truncatingIfNeeded: count)
                )))
    }

    private static let temporaryPrefix = UUID()
    private static let temporaryCounter = Atomic<UInt64>(0)

    /// Whether the ID is temporary (the object has not been saved yet).
    public var isTemporary: Bool {
        if case .temporary = key { return true }
        return false
    }

    /// The URI form: `x-coredata://<store>/<Entity>/p<N>` (temporary: `t<UUID>`).
    public var uriRepresentation: URL {
        var components = URLComponents()
        components.scheme = "x-coredata"
        components.host = storeIdentifier.isEmpty ? "" : storeIdentifier
        switch key {
        case .permanent(let pk): components.path = "/\(entityName)/p\(pk)"
        case .temporary(let id): components.path = "/\(entityName)/t\(id.uuidString)"
        }
        return components.url ?? URL(fileURLWithPath: "/")
    }
}

extension ObjectID: CustomStringConvertible {
    /// The URI form as text.
    public var description: String { uriRepresentation.absoluteString }
}
