import Foundation

/// What happened in a context: which objects were inserted, updated and deleted.
public struct ContextChange: Sendable, Hashable {
    /// Objects inserted (or brought back by undoing a delete).
    public var inserted: Set<ObjectID> = []
    /// Objects whose values or relationships changed.
    public var updated: Set<ObjectID> = []
    /// Objects deleted (or removed by undoing an insert).
    public var deleted: Set<ObjectID> = []

    /// Whether nothing is listed.
    public var isEmpty: Bool { inserted.isEmpty && updated.isEmpty && deleted.isEmpty }
}

/// A context notification, as Core Data posts them.
public struct ContextNotification: Sendable, Hashable {
    /// Which moment.
    public enum Kind: Sendable, Hashable {
        /// Objects changed in memory (after each change, undo and redo).
        case objectsDidChange
        /// A save is about to write (`changes` lists what it will write).
        case willSave
        /// A save wrote (`changes` lists the permanent IDs written).
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

    func postObjectsDidChange() {
        if observers.isEmpty {
            if !pendingChange.isEmpty { pendingChange = ContextChange() }
            return
        }
        var change = pendingChange
        pendingChange = ContextChange()
        change.updated.subtract(change.inserted)
        change.updated.subtract(change.deleted)
        guard !change.isEmpty else { return }
        post(ContextNotification(kind: .objectsDidChange, changes: change))
    }
}
