/// Contexts that stay current: other contexts' saves on the same coordinator merged
/// automatically (Core Data's `automaticallyMergesChangesFromParent`).
extension ManagedContext {
    /// Whether the context merges, on its own queue and without being asked, the saves its
    /// parent hears of (Core Data's `automaticallyMergesChangesFromParent`; `false` by
    /// default): for a context on the coordinator, every save other contexts make through the
    /// coordinator; for a child context, its parent's saves and those of its parent's other
    /// children.
    ///
    /// Each save's did-save notification is merged with
    /// ``mergeChanges(fromContextDidSave:)``: a private-queue context merges on its queue, a
    /// main-queue context on the main queue, a confined context at its next
    /// ``processPendingChanges()``, fetch or save. Observers see the merge as an
    /// ``ContextNotification/Kind/objectsDidChange``. A merge that cannot read an updated
    /// object again stops there (the objects merged before it stay merged), as a merge asked
    /// for would.
    ///
    /// ```swift
    /// let view = await container.viewContext
    /// view.automaticallyMergesChangesFromParent = true
    /// try await container.performBackgroundTask { context in
    ///     try context.insert("Person").set("Ann", for: "name")
    ///     try context.save()
    /// }
    /// // The view context has merged the insert (its fetches and observers see it).
    /// ```
    public var automaticallyMergesChangesFromParent: Bool {
        get { automaticMerge != nil }
        set {
            checkQueue("automaticallyMergesChangesFromParent")
            guard newValue != (automaticMerge != nil) else { return }
            automaticMerge = newValue ? AutomaticMerge(self) : nil
        }
    }

    /// Whether a save must make its did-save notification: someone observes this context or
    /// the coordinator's saves.
    var wantsDidSave: Bool { !observers.isEmpty || !coordinator.saveObservers.isEmpty }

    /// Tells the coordinator's save observers (other contexts) about a save this context made.
    func broadcastSave(_ notification: ContextNotification) {
        coordinator.saveObservers.post(notification, from: ObjectIdentifier(self))
    }
}

/// A context's registration with its coordinator's ``SaveObservers`` while
/// ``ManagedContext/automaticallyMergesChangesFromParent`` is on: each other context's
/// did-save is handed to the context's queue and merged there. Released (and so unregistered)
/// when the flag goes off or the context goes.
///
/// A child context is not registered: its parent's saves reach it through
/// ``ManagedContext/parentDidSave(_:)``.
final class AutomaticMerge {
    private let observers: SaveObservers
    private let token: Int?

    init(_ context: ManagedContext) {
        observers = context.coordinator.saveObservers
        guard context.family.upstream == nil else {
            token = nil
            return
        }
        let receiver = ObjectIdentifier(context)
        let reference = QueuedContext(context)
        token = observers.add { payload, sender in
            guard sender != receiver, let notification = payload as? ContextNotification,
                notification.kind == .didSave
            else { return }
            reference.enqueue { context in
                // As Core Data's automatic merge, nothing to report to: an object that cannot
                // be read again stays as it was.
                try? context.mergeChanges(fromContextDidSave: notification)
            }
        }
    }

    deinit {
        if let token { observers.remove(token) }
    }
}
