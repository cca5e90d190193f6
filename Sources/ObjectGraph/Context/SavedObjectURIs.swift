import Foundation

/// The object URIs of a save (Core Data's `NSInsertedObjectsKey`, `NSUpdatedObjectsKey` and
/// `NSDeletedObjectsKey` holding URIs): what a process sends another so that it can merge the
/// save with ``ManagedContext/mergeChanges(fromRemoteContextSave:into:)-(SavedObjectURIs,_)``.
/// `Sendable` and `Codable`, so it can cross isolation domains and be written to a file, a
/// pipe or a socket.
///
/// ```swift
/// // In the process that saved:
/// let observation = context.observe { note in
///     guard let uris = SavedObjectURIs(note) else { return }
///     send(try JSONEncoder().encode(uris))
/// }
/// // In the other process:
/// let uris = try JSONDecoder().decode(SavedObjectURIs.self, from: received)
/// try ManagedContext.mergeChanges(fromRemoteContextSave: uris, into: [viewContext])
/// ```
public struct SavedObjectURIs: Sendable, Hashable, Codable {
    /// The URIs of the objects the save inserted.
    public var inserted: [URL]
    /// The URIs of the objects the save updated.
    public var updated: [URL]
    /// The URIs of the objects the save deleted.
    public var deleted: [URL]

    /// Creates a list of URIs (`x-coredata://<store UUID>/<Entity>/p<N>`).
    public init(inserted: [URL] = [], updated: [URL] = [], deleted: [URL] = []) {
        self.inserted = inserted
        self.updated = updated
        self.deleted = deleted
    }

    /// The URIs of the IDs `changes` lists as inserted, updated and deleted (sorted, so the
    /// same save gives the same value).
    public init(_ changes: ContextChange) {
        func uris(_ ids: Set<ObjectID>) -> [URL] {
            ids.map(\.uriRepresentation).sorted { $0.absoluteString < $1.absoluteString }
        }
        self.init(
            inserted: uris(changes.inserted), updated: uris(changes.updated),
            deleted: uris(changes.deleted))
    }

    /// The URIs of a did-save notification's IDs; `nil` for a notification of another kind.
    public init?(_ notification: ContextNotification) {
        guard notification.kind == .didSave else { return nil }
        self.init(notification.changes)
    }

    /// The IDs these URIs stand for in `coordinator`'s stores, as a change listing them.
    /// - Throws: ``ObjectGraphError/invalidObjectURI(_:)`` naming the first URI that is not
    ///   a permanent object URI of a store and entity of `coordinator` (malformed, temporary,
    ///   or of another store).
    public func objectIDs(in coordinator: StoreCoordinator) throws -> ContextChange {
        func ids(_ uris: [URL]) throws -> Set<ObjectID> {
            Set(try uris.map { try coordinator.objectID(forURI: $0) })
        }
        return ContextChange(
            inserted: try ids(inserted), updated: try ids(updated), deleted: try ids(deleted))
    }
}
