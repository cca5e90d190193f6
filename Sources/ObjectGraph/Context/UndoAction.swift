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
    func run() {
        switch self {
        case .restoreSlot(let reference, let object, let position, let slot):
            reference.context?.setSlot(object, position, slot)
        case .reverseEdit(let reference, let object, let position, let edit):
            guard let context = reference.context, case .toMany(var list) = object.slots[position]
            else { return }
            edit.reverse(&list)
            context.setSlot(object, position, .toMany(list))
        case .perform(let body):
            body()
        }
    }
}

/// A context held weakly by its undo records (the context owns its undo manager).
struct ContextReference {
    weak var context: ManagedContext?

    init(_ context: ManagedContext) {
        self.context = context
    }
}
