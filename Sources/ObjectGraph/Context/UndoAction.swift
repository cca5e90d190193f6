/// One recorded reversal of a change.
///
/// The frequent changes — a property set, one object added to or removed from a to-many
/// list — are plain records (56 bytes in the undo manager's flat array); the rare ones
/// (inserting, deleting) keep a closure.
enum UndoAction {
    /// Puts `slot` back at `position` of the object.
    case restoreSlot(ContextReference, ManagedObject, position: Int, slot: Slot)
    /// Reverses a one-object edit of the to-many list at `position` of the object.
    case reverseEdit(ContextReference, ManagedObject, position: Int, edit: ToManyEdit)
    /// Runs a closure.
    case perform(() -> Void)

    /// Reverses the change (recording the opposite change, as every primitive does).
    ///
    /// An object that turned into a fault since is loaded first, so the change applies to its
    /// values.
    func run() {
        switch self {
        case .restoreSlot(let reference, let object, let position, let slot):
            guard let context = Self.context(of: object, reference) else { return }
            context.setSlot(object, position, slot)
        case .reverseEdit(let reference, let object, let position, let edit):
            guard let context = Self.context(of: object, reference),
                case .toMany(var list) = object.slots[position]
            else { return }
            edit.reverse(&list)
            context.setSlot(object, position, .toMany(list))
        case .perform(let body):
            body()
        }
    }

    /// The context of `reference`, with `object` loaded if it is a fault of that context. (An
    /// object whose saved deletion took it out of the context has no context until the undo
    /// of its deletion, later in the same group, brings it back; a merge that removes objects
    /// clears the undo history.)
    private static func context(of object: ManagedObject, _ reference: ContextReference)
        -> ManagedContext?
    {
        guard let context = reference.context else { return nil }
        if object.state == .fault, object.context === context {
            do { try object.fulfill() } catch { return nil }
        }
        return context
    }
}

/// A context held weakly by its undo records (the context owns its undo manager).
struct ContextReference {
    weak var context: ManagedContext?

    init(_ context: ManagedContext) {
        self.context = context
    }
}
