/// Undo and redo for a ``ManagedContext`` (Linux's Foundation has no `UndoManager`, so
/// ObjectGraph brings its own, with the same model).
///
/// Changes are recorded in groups. Each call that changes the graph (a `set`, an `insert`, a
/// `delete` with its cascade) forms one group unless a group is open, so ``undo()`` reverses
/// one user action. Open your own group to make several actions one:
///
/// ```swift
/// context.undoManager.group(named: "Enroll") {
///     try student.add(course, to: "courses")
///     try student.set(1, for: "year")
/// }
/// context.undoManager.undo()   // both changes reversed
/// context.undoManager.redo()   // and made again
/// ```
///
/// Like Foundation's, a new change made while there are redo actions clears them.
public final class UndoManager {
    typealias Action = () -> Void

    struct Group {
        var name: String
        var actions: [Action] = []
    }

    private var undoStack: [Group] = []
    private var redoStack: [Group] = []
    private var openGroups: [Group] = []
    private var disabledCount = 0

    /// Whether an undo is running (its changes are recorded as redo actions).
    public private(set) var isUndoing = false
    /// Whether a redo is running.
    public private(set) var isRedoing = false
    /// How many groups are kept; 0 means no limit.
    public var levelsOfUndo: Int = 0 {
        didSet { trim() }
    }

    /// Called after each undo or redo (a context posts its objects-did-change here).
    var didUndoOrRedo: (() -> Void)?

    /// Creates an empty undo manager.
    public init() {}

    /// Whether there is a group to undo.
    public var canUndo: Bool { !undoStack.isEmpty || openGroups.contains { !$0.actions.isEmpty } }
    /// Whether there is a group to redo.
    public var canRedo: Bool { !redoStack.isEmpty }
    /// The name of the group ``undo()`` would reverse.
    public var undoActionName: String { undoStack.last?.name ?? "" }
    /// The name of the group ``redo()`` would make again.
    public var redoActionName: String { redoStack.last?.name ?? "" }
    /// How deep the open groups are nested (0: none).
    public var groupingLevel: Int { openGroups.count }
    /// Whether changes are recorded.
    public var isUndoRegistrationEnabled: Bool { disabledCount == 0 }

    /// Opens a group; every change until the matching ``endUndoGrouping()`` undoes together.
    public func beginUndoGrouping() {
        openGroups.append(Group(name: ""))
    }

    /// Closes the innermost group. A closed top-level group with changes becomes undoable.
    public func endUndoGrouping() {
        guard let group = openGroups.popLast() else { return }
        if var parent = openGroups.popLast() {
            parent.actions += group.actions
            if parent.name.isEmpty { parent.name = group.name }
            openGroups.append(parent)
        } else if !group.actions.isEmpty {
            push(group)
        }
    }

    /// Names the innermost open group (or the last closed one) for menus: "Undo Enroll".
    public func setActionName(_ name: String) {
        if !openGroups.isEmpty {
            openGroups[openGroups.count - 1].name = name
        } else if isUndoing, !redoStack.isEmpty {
            redoStack[redoStack.count - 1].name = name
        } else if !undoStack.isEmpty {
            undoStack[undoStack.count - 1].name = name
        }
    }

    /// Runs `body` as one named group; if it throws, the group still closes.
    public func group<T>(named name: String = "", _ body: () throws -> T) rethrows -> T {
        beginUndoGrouping()
        setActionName(name)
        defer { endUndoGrouping() }
        return try body()
    }

    /// Stops recording changes until ``enableUndoRegistration()``; calls nest.
    public func disableUndoRegistration() { disabledCount += 1 }
    /// Resumes recording changes.
    public func enableUndoRegistration() { disabledCount = max(0, disabledCount - 1) }

    /// Reverses the last group. Its changes are recorded for ``redo()``.
    public func undo() {
        while !openGroups.isEmpty { endUndoGrouping() }
        guard let group = undoStack.popLast() else { return }
        isUndoing = true
        redoStack.append(run(group))
        isUndoing = false
        didUndoOrRedo?()
    }

    /// Makes the last undone group again.
    public func redo() {
        guard let group = redoStack.popLast() else { return }
        isRedoing = true
        push(run(group), clearingRedo: false)
        isRedoing = false
        didUndoOrRedo?()
    }

    /// Forgets every undo and redo action.
    public func removeAllActions() {
        undoStack.removeAll()
        redoStack.removeAll()
        openGroups.removeAll()
    }

    // MARK: - Recording

    /// Records how to reverse a change just made.
    func register(_ action: @escaping Action) {
        guard isUndoRegistrationEnabled else { return }
        if isUndoing || isRedoing {
            collecting?.actions.append(action)
            return
        }
        if openGroups.isEmpty {
            push(Group(name: "", actions: [action]))
        } else {
            openGroups[openGroups.count - 1].actions.append(action)
        }
    }

    /// The group that collects the reversing actions while an undo or redo runs.
    private var collecting: Group?

    private func run(_ group: Group) -> Group {
        collecting = Group(name: group.name)
        for action in group.actions.reversed() { action() }
        let reversed = collecting ?? Group(name: group.name)
        collecting = nil
        return reversed
    }

    private func push(_ group: Group, clearingRedo: Bool = true) {
        undoStack.append(group)
        if clearingRedo, !isRedoing { redoStack.removeAll() }
        trim()
    }

    private func trim() {
        if levelsOfUndo > 0, undoStack.count > levelsOfUndo {
            undoStack.removeFirst(undoStack.count - levelsOfUndo)
        }
    }
}
