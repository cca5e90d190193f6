/// The smallest changes of the graph. Every change goes through these, so each records how to
/// reverse itself for undo and marks its object as changed. Undo actions hold their objects
/// (like Foundation's undo manager holds its targets): an object removed by undoing its insert,
/// or whose deletion was saved, may be held by nothing else and must come back on redo/undo.
extension ManagedContext {
    /// Replaces the slot at `position` of `object`.
    func setSlot(_ object: ManagedObject, _ position: Int, _ slot: Slot) {
        object.rememberOriginal(at: position)
        if let undoManager, undoManager.isUndoRegistrationEnabled {
            let old = object.slots[position]
            if case .toMany(let before) = old, case .toMany(let after) = slot,
                let edit = ToManyEdit(from: before, to: after)
            {
                // One object added or removed: record just that, not the whole old list (so
                // building a relationship of k objects keeps O(k) undo state, not O(k²)).
                undoManager.record(
                    .reverseEdit(ContextReference(self), object, position: position, edit: edit))
            } else {
                undoManager.record(
                    .restoreSlot(ContextReference(self), object, position: position, slot: old))
            }
        }
        object.slots[position] = slot
        object.observedChange(at: position)
        noteChange(object, position)
    }

    /// Inserts `member` into the loaded to-many list at `position` of `object` (at its end
    /// when `index` is nil), in place: the list is not copied, and undo records just the
    /// one object.
    func insertIntoToMany(
        _ object: ManagedObject, _ position: Int, _ member: ManagedObject, at index: Int?
    ) {
        guard case .toMany = object.slots[position] else { return }
        object.rememberOriginal(at: position)
        guard case .toMany(var list) = object.slots[position] else { return }
        object.slots[position] = .toMany([])  // `list` is now the only reference: no copy
        let at = min(max(index ?? list.count, 0), list.count)
        list.insert(member, at: at)
        object.slots[position] = .toMany(list)
        object.observedChange(at: position)
        if let undoManager, undoManager.isUndoRegistrationEnabled {
            let edit = ToManyEdit(object: member, index: at, wasAdded: true)
            undoManager.record(
                .reverseEdit(ContextReference(self), object, position: position, edit: edit))
        }
        noteChange(object, position)
    }

    /// Removes `member` from the loaded to-many list at `position` of `object`, in place (the
    /// list is not copied, so detaching k objects one by one costs no k copies of the list);
    /// undo records just the one object. Does nothing when `member` is not in the list.
    func removeFromToMany(_ object: ManagedObject, _ position: Int, _ member: ManagedObject) {
        guard let index = Self.index(of: member, inToManyAt: position, of: object) else { return }
        object.rememberOriginal(at: position)
        guard case .toMany(var list) = object.slots[position] else { return }
        object.slots[position] = .toMany([])  // `list` is now the only reference: no copy
        list.remove(at: index)
        object.slots[position] = .toMany(list)
        object.observedChange(at: position)
        if let undoManager, undoManager.isUndoRegistrationEnabled {
            let edit = ToManyEdit(object: member, index: index, wasAdded: false)
            undoManager.record(
                .reverseEdit(ContextReference(self), object, position: position, edit: edit))
        }
        noteChange(object, position)
    }

    /// Where `member` is in the loaded to-many list at `position` of `object`.
    private static func index(
        of member: ManagedObject, inToManyAt position: Int, of object: ManagedObject
    ) -> Int? {
        guard case .toMany(let list) = object.slots[position] else { return nil }
        return list.firstIndex { $0 === member }
    }

    /// Records that `position` of `object` changed.
    private func noteChange(_ object: ManagedObject, _ position: Int) {
        touch(object)
        // An object inserted in the same change is listed as inserted only (see
        // postObjectsDidChange); later edits of an unsaved object are updates.
        if !observers.isEmpty { pendingChange.updated.insert(object.objectID) }
    }

    /// Marks a new object inserted.
    func markInserted(_ object: ManagedObject) {
        object.insertedFlag = true
        touch(object)
        if !observers.isEmpty { pendingChange.inserted.insert(object.objectID) }
        undoManager?.register { [weak self] in
            guard let self else { return }
            self.unmarkInserted(object)
        }
    }

    /// Reverses an insert: an unsaved object leaves the context; a saved one is deleted.
    func unmarkInserted(_ object: ManagedObject) {
        if object.insertedFlag {
            object.insertedFlag = false
            registry[object.objectID] = nil
            untouch(object)
            if !observers.isEmpty { pendingChange.deleted.insert(object.objectID) }
            undoManager?.register { [weak self] in
                guard let self else { return }
                self.registry[object.objectID] = object
                object.context = self
                self.markInserted(object)
            }
        } else {
            markDeleted(object)
        }
    }

    /// Marks an object deleted.
    func markDeleted(_ object: ManagedObject) {
        guard !object.deletedFlag else { return }
        object.deletedFlag = true
        touch(object)
        if !observers.isEmpty { pendingChange.deleted.insert(object.objectID) }
        undoManager?.register { [weak self] in
            guard let self else { return }
            self.unmarkDeleted(object)
        }
    }

    /// Reverses a deletion. An object whose deletion was saved comes back as an insert.
    func unmarkDeleted(_ object: ManagedObject) {
        // An object whose deletion was saved is deleted no longer, and has no context.
        guard object.deletedFlag || object.context == nil else { return }
        object.deletedFlag = false
        if object.context == nil {
            object.context = self
            registry[object.objectID] = object
            object.insertedFlag = true
            object.forgetCommittedValues()
            object.version = 0
        }
        touch(object)
        if !observers.isEmpty { pendingChange.inserted.insert(object.objectID) }
        undoManager?.register { [weak self] in
            guard let self else { return }
            self.markDeleted(object)
        }
    }

    /// Notes that `object` changed.
    func touch(_ object: ManagedObject) {
        touched.insert(object)
        changeCount &+= 1
    }

    /// Forgets that `object` changed (it was saved, discarded or refreshed).
    func untouch(_ object: ManagedObject) {
        touched.remove(object)
    }

    /// Forgets every change.
    func untouchAll() {
        touched.removeAll()
    }

    /// Undoes the last group of changes and posts what changed (as `undoManager.undo()` does);
    /// does nothing without an undo manager. Pending changes are processed first
    /// (``processPendingChanges()``), so the changes of the current event undo together.
    public func undo() {
        undoManager?.undo()
    }

    /// Redoes the last undone group of changes and posts what changed.
    public func redo() {
        undoManager?.redo()
    }
}

/// A change of a to-many list by exactly one object, and how to reverse it.
struct ToManyEdit {
    let object: ManagedObject
    let index: Int
    let wasAdded: Bool

    /// An edit of `object` at `index`.
    init(object: ManagedObject, index: Int, wasAdded: Bool) {
        self.object = object
        self.index = index
        self.wasAdded = wasAdded
    }

    /// The edit that turns `before` into `after`, when they differ by one object.
    init?(from before: [ManagedObject], to after: [ManagedObject]) {
        let (shorter, longer, added) =
            after.count == before.count + 1
            ? (before, after, true)
            : after.count + 1 == before.count ? (after, before, false) : ([], [], false)
        guard longer.count == shorter.count + 1 else { return nil }
        var index = 0
        while index < shorter.count, shorter[index] === longer[index] { index += 1 }
        var rest = index
        while rest < shorter.count {
            guard shorter[rest] === longer[rest + 1] else { return nil }
            rest += 1
        }
        object = longer[index]
        self.index = index
        wasAdded = added
    }

    /// Undoes the edit on `list` (the relationship's current objects).
    func reverse(_ list: inout [ManagedObject]) {
        if wasAdded {
            if index < list.count, list[index] === object {
                list.remove(at: index)
            } else if let found = list.lastIndex(where: { $0 === object }) {
                list.remove(at: found)
            }
        } else if !list.contains(where: { $0 === object }) {
            list.insert(object, at: min(index, list.count))
        }
    }
}
