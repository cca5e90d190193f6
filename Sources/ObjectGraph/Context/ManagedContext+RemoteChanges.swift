import Foundation

/// Contexts that stay current with other processes: remote changes
/// (``StoreOptions/postsRemoteChangeNotifications``) merged on the context's queue.
extension ManagedContext {
    /// Whether the context merges, on its own queue and without being asked, the commits other
    /// processes and other coordinators make to its coordinator's stores (those added with
    /// ``StoreOptions/postsRemoteChangeNotifications``); `false` by default. Each
    /// ``StoreCoordinator/remoteChangeNotification`` is merged with
    /// ``mergeChanges(fromRemoteChange:)``: a private-queue context merges on its queue, a
    /// main-queue context on the main queue, a confined context at its next
    /// ``processPendingChanges()``, fetch or save. Only a context on the coordinator merges (a
    /// child context sees its parent's objects). Core Data leaves this to the app (it reads
    /// the history after a remote change notification); this is that loop, built in.
    ///
    /// ```swift
    /// var options = StoreOptions()
    /// options.postsRemoteChangeNotifications = true
    /// try coordinator.addStore(type: .sqlite, at: url, options: options)
    /// let context = ManagedContext(coordinator: coordinator, concurrencyType: .privateQueue)
    /// context.automaticallyMergesRemoteChanges = true
    /// // A widget's process saves; the context's objects show it within a second.
    /// ```
    public var automaticallyMergesRemoteChanges: Bool {
        get { remoteMerge != nil }
        set {
            checkQueue("automaticallyMergesRemoteChanges")
            guard newValue != (remoteMerge != nil) else { return }
            remoteMerge = newValue ? RemoteChangeMerge(self) : nil
            if newValue { startRemoteHistory() }
        }
    }

    /// Brings a commit another process or another coordinator made to a store of this
    /// context's coordinator (a ``StoreRemoteChange``) into the context.
    ///
    /// When the store keeps persistent history (``StoreOptions/tracksHistory``) and the
    /// context knows where it last read it (since ``automaticallyMergesRemoteChanges`` was
    /// turned on, or since an earlier change), the transactions recorded after that token are
    /// merged (``mergeChanges(fromHistory:)``): inserted, updated and deleted objects, as
    /// another context's save would be.
    ///
    /// Otherwise each object the context holds from that store is compared with the store's
    /// row — objects whose row is gone are deleted here (as
    /// ``mergeChanges(fromContextDidSave:)`` deletes), loaded objects whose row version
    /// (`Z_OPT`) moved are read again with this context's unsaved changes kept on top, and new
    /// rows need nothing (fetches find them). Observers get one
    /// ``ContextNotification/Kind/objectsDidChange`` listing them (no inserted objects: the
    /// rows do not say which are new). Reads the rows of the objects the context holds from
    /// that store, one query per entity.
    ///
    /// ```swift
    /// for await change in coordinator.remoteChanges() {
    ///     try viewContext.mergeChanges(fromRemoteChange: change)
    /// }
    /// ```
    /// - Throws: ``ObjectGraphError`` or a store error when the rows cannot be read; nothing is
    ///   merged then.
    public func mergeChanges(fromRemoteChange change: StoreRemoteChange) throws {
        checkQueue("mergeChanges(fromRemoteChange:)")
        if try mergeRemoteHistory(change) { return }
        try mergeRemoteRows(change)
        if let token = change.historyToken { remoteHistoryTokens[change.storeIdentifier] = token }
    }

    /// Merges a remote change by comparing the objects the context holds from its store with
    /// their rows (see ``mergeChanges(fromRemoteChange:)``).
    private func mergeRemoteRows(_ change: StoreRemoteChange) throws {
        let held = registry.values.filter {
            !$0.insertedFlag && !$0.objectID.isTemporary
                && $0.objectID.storeIdentifier == change.storeIdentifier
        }
        guard !held.isEmpty else { return }
        let rows = try source.rows(for: held.map(\.objectID), in: nil)
        var changes = ContextChange()
        for object in held {
            if let row = rows[object.objectID] {
                if object.state == .loaded, row.version != object.version {
                    changes.updated.insert(object.objectID)
                }
            } else {
                changes.deleted.insert(object.objectID)
            }
        }
        guard !changes.isEmpty else { return }
        try mergeChanges(fromContextDidSave: ContextNotification(kind: .didSave, changes: changes))
    }
}

/// A context's registration with its coordinator's remote changes while
/// ``ManagedContext/automaticallyMergesRemoteChanges`` is on: each change is handed to the
/// context's queue and merged there. Released (and so unregistered) when the flag goes off or
/// the context goes. A child context is not registered.
final class RemoteChangeMerge {
    private let observers: SaveObservers
    private let token: Int?

    init(_ context: ManagedContext) {
        observers = context.coordinator.remoteChangeCenter.observers
        guard context.family.upstream == nil else {
            token = nil
            return
        }
        let reference = QueuedContext(context)
        token = observers.add { payload, _ in
            guard let change = payload as? StoreRemoteChange else { return }
            reference.enqueue { context in
                // As the automatic merge of saves: nothing to report to; objects whose rows
                // cannot be read stay as they were until the next change.
                try? context.mergeChanges(fromRemoteChange: change)
            }
        }
    }

    deinit {
        if let token { observers.remove(token) }
    }
}
