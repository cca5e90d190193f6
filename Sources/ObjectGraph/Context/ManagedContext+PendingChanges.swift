/// Processing pending changes: the end of an event, when a context posts what changed and its
/// undo manager closes the event's undo group.
extension ManagedContext {
    /// Ends the current event (Core Data's `processPendingChanges()`): posts one
    /// ``ContextNotification/Kind/objectsDidChange`` with everything changed since the last
    /// one (objects inserted, updated, deleted, refreshed and invalidated), and closes the undo
    /// group the changes since then were recorded in, so they undo as one step.
    ///
    /// Core Data calls it at the end of each run-loop event. Linux has no run loop, so a
    /// context calls it itself when it saves (first, before `willSave`), when an undo or redo
    /// starts and ends, when an undo group is opened or closed (``UndoManager/beginUndoGrouping()``,
    /// ``UndoManager/endUndoGrouping()``, ``UndoManager/group(named:_:)``), and when it merges
    /// another context's save. Call it to end an event yourself, for instance after each user
    /// action of a command-line tool or server request:
    ///
    /// ```swift
    /// try person.set("Ann", for: "name")
    /// try person.set(31, for: "age")
    /// context.processPendingChanges()   // one notification, one undo step
    /// ```
    ///
    /// Delete rules and inverse relationships need no processing here: they are applied as
    /// each change is made (Core Data applies them here), so a deleted object's related
    /// objects already read as Core Data's read after this call.
    public func processPendingChanges() {
        checkQueue("processPendingChanges")
        drainQueuedWork()
        undoManager?.endEventGroup()
        postObjectsDidChange()
    }

    /// Connects `undoManager` to this context (processing pending changes at its checkpoints,
    /// undos and redos) and disconnects `previous`.
    func attachUndoManager(replacing previous: UndoManager?) {
        if previous !== undoManager {
            previous?.didUndoOrRedo = nil
            previous?.checkpoint = nil
        }
        undoManager?.didUndoOrRedo = { [weak self] in self?.processPendingChanges() }
        undoManager?.checkpoint = { [weak self] in self?.processPendingChanges() }
    }
}

extension ManagedContext {
    /// Makes the values of `objects`, changed only in transient attributes, their committed
    /// ones: a save writes nothing for them, yet leaves them unchanged, as in Core Data.
    func commitTransientChanges(_ objects: [ManagedObject]) {
        for object in objects {
            untouch(object)
            object.commitValues()
        }
    }
}
