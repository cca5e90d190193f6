import Foundation

/// What happened in a context: which objects were inserted, updated, deleted, refreshed and
/// invalidated (the keys of Core Data's notifications' `userInfo`).
public struct ContextChange: Sendable, Hashable {
    /// Objects inserted (or brought back by undoing a delete).
    public var inserted: Set<ObjectID> = []
    /// Objects whose values or relationships changed.
    public var updated: Set<ObjectID> = []
    /// Objects deleted (or removed by undoing an insert, or deleted by another context whose
    /// save was merged).
    public var deleted: Set<ObjectID> = []
    /// Objects read again from their store (Core Data's `NSRefreshedObjectsKey`): by
    /// ``ManagedContext/refresh(_:mergeChanges:)``, ``ManagedContext/refreshAllObjects()``, or
    /// a merge of another context's save that changed them while they had no unsaved changes
    /// here (those with unsaved changes are listed as ``updated``).
    public var refreshed: Set<ObjectID> = []
    /// Objects the context let go of that must not be used again (Core Data's
    /// `NSInvalidatedObjectsKey`); on ``ManagedContext/reset()``, every object it held.
    public var invalidated: Set<ObjectID> = []
    /// Whether every object of the context was invalidated (Core Data's
    /// `NSInvalidatedAllObjectsKey`): posted by ``ManagedContext/reset()``.
    ///
    /// ```swift
    /// let observation = context.observe { note in
    ///     if note.changes.invalidatedAll { reloadEverything() }
    /// }
    /// ```
    public var invalidatedAll = false

    /// Creates a change listing the given objects.
    public init(
        inserted: Set<ObjectID> = [], updated: Set<ObjectID> = [], deleted: Set<ObjectID> = [],
        refreshed: Set<ObjectID> = [], invalidated: Set<ObjectID> = [],
        invalidatedAll: Bool = false
    ) {
        self.inserted = inserted
        self.updated = updated
        self.deleted = deleted
        self.refreshed = refreshed
        self.invalidated = invalidated
        self.invalidatedAll = invalidatedAll
    }

    /// Whether nothing is listed.
    public var isEmpty: Bool {
        inserted.isEmpty && updated.isEmpty && deleted.isEmpty && refreshed.isEmpty
            && invalidated.isEmpty && !invalidatedAll
    }
}

/// A context notification, as Core Data posts them.
public struct ContextNotification: Sendable, Hashable {
    /// Which moment.
    public enum Kind: Sendable, Hashable {
        /// Objects changed in memory: posted when the context processes its pending changes
        /// (``ManagedContext/processPendingChanges()``), with everything since the last one.
        case objectsDidChange
        /// A save is about to write (`changes` lists what it will write).
        case willSave
        /// A save wrote (`changes` lists the permanent IDs inserted, updated and deleted).
        /// The notification is `Sendable`: pass it (or its ``ContextNotification/changes``)
        /// to another context's ``ManagedContext/mergeChanges(fromContextDidSave:)``, or to
        /// ``ManagedContext/mergeChanges(fromRemoteContextSave:into:)-(ContextChange,_)`` for contexts of
        /// another coordinator; ``SavedObjectURIs`` carries its IDs as URIs to another process.
        case didSave
    }

    /// Which moment.
    public var kind: Kind
    /// What changed.
    public var changes: ContextChange
}

/// Keeps an observation alive; observation stops when it is cancelled or released.
public final class ContextObservation {
    private var cancelAction: (() -> Void)?

    init(cancel: @escaping () -> Void) { cancelAction = cancel }

    /// Stops the observation.
    public func cancel() {
        cancelAction?()
        cancelAction = nil
    }

    deinit { cancelAction?() }
}

/// Ends its stream when released, that is when the context (holding it as an observer) goes.
private final class StreamSink {
    let continuation: AsyncStream<ContextNotification>.Continuation

    init(_ continuation: AsyncStream<ContextNotification>.Continuation) {
        self.continuation = continuation
    }

    deinit { continuation.finish() }
}

extension ManagedContext {
    /// Calls `handler` with every notification of this context, on the context's thread.
    ///
    /// ```swift
    /// let observation = context.observe { note in
    ///     if note.kind == .didSave { print("saved", note.changes.inserted.count) }
    /// }
    /// ```
    public func observe(_ handler: @escaping (ContextNotification) -> Void) -> ContextObservation {
        let key = UUID()
        observers[key] = handler
        return ContextObservation { [weak self] in self?.observers[key] = nil }
    }

    /// The context's notifications as an asynchronous sequence (ends when the context goes).
    public var notifications: AsyncStream<ContextNotification> {
        let (stream, continuation) = AsyncStream<ContextNotification>.makeStream()
        let sink = StreamSink(continuation)
        observers[UUID()] = { sink.continuation.yield($0) }
        return stream
    }

    func post(_ notification: ContextNotification) {
        for handler in observers.values { handler(notification) }
    }

    /// Posts the objects-did-change of everything noted since the last one. An object both
    /// inserted and deleted since then was never seen, and is not listed; one inserted or
    /// deleted is listed as that only, not also as updated or refreshed.
    func postObjectsDidChange() {
        if observers.isEmpty {
            if !pendingChange.isEmpty { pendingChange = ContextChange() }
            return
        }
        var change = pendingChange
        pendingChange = ContextChange()
        let brief = change.inserted.intersection(change.deleted)
        change.inserted.subtract(brief)
        change.deleted.subtract(brief)
        for listed in [change.inserted, change.deleted, brief] {
            change.updated.subtract(listed)
            change.refreshed.subtract(listed)
        }
        change.refreshed.subtract(change.updated)
        guard !change.isEmpty else { return }
        post(ContextNotification(kind: .objectsDidChange, changes: change))
    }

    /// Notes that `object` was read again from its store, for the next objects-did-change.
    func noteRefreshed(_ object: ManagedObject) {
        if !observers.isEmpty { pendingChange.refreshed.insert(object.objectID) }
    }

    /// Posts that every object of the context was invalidated (`ids`, taken before a reset);
    /// changes not posted yet went with them.
    func postInvalidatedAll(_ ids: Set<ObjectID>) {
        pendingChange = ContextChange()
        guard !observers.isEmpty else { return }
        post(
            ContextNotification(
                kind: .objectsDidChange,
                changes: ContextChange(invalidated: ids, invalidatedAll: true)))
    }
}
