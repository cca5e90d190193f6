/// Undo and redo for a ``ManagedContext`` (Linux's Foundation has no `UndoManager`, so
/// ObjectGraph brings its own, with the same model).
///
/// Changes are recorded in groups, by event as in Core Data (``groupsByEvent``, on by default):
/// every change made between two ``ManagedContext/processPendingChanges()`` forms one group,
/// so ``undo()`` reverses them together. Linux has no run loop to end an event, so the context
/// processes its pending changes (ending the group) when it saves, when an undo or redo starts,
/// when a group is opened or closed with ``beginUndoGrouping()`` / ``endUndoGrouping()``, and
/// when ``ManagedContext/processPendingChanges()`` is called:
///
/// ```swift
/// try course.set("Geometry", for: "title")
/// try course.set(4, for: "credits")
/// context.processPendingChanges()   // one undo step: both changes
/// try course.set("Topology", for: "title")
/// context.undo()                    // the title is "Geometry" again
/// ```
///
/// Open your own group to make several actions one named step:
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
    typealias Action = UndoAction

    struct Group {
        var name: String
        var actions: [Action] = []
    }

    private var undoStack = GroupStack()
    private var redoStack = GroupStack()
    /// The actions of the open groups, innermost last, and where each open group starts.
    private var openActions: [Action] = []
    private var openMarks: [(start: Int, name: String)] = []
    private var disabledCount = 0
    /// Whether the outermost open group is the one opened by a change (see ``groupsByEvent``),
    /// not by ``beginUndoGrouping()``.
    private var eventGroupIsOpen = false

    /// Whether an undo is running (its changes are recorded as redo actions).
    public private(set) var isUndoing = false
    /// Whether a redo is running.
    public private(set) var isRedoing = false
    /// How many groups are kept; 0 means no limit.
    public var levelsOfUndo: Int = 0 {
        didSet { trim() }
    }

    /// Whether a change recorded while no group is open opens a group that lasts until the
    /// context processes its pending changes (Core Data's default, `true`): all changes of
    /// one event undo together. With `false`, a change made outside a group opened with
    /// ``beginUndoGrouping()`` is a step of its own (Foundation raises an exception instead).
    public var groupsByEvent = true

    /// Called after each undo or redo (a context processes its pending changes here, posting
    /// its objects-did-change).
    var didUndoOrRedo: (() -> Void)?
    /// Called when a group opens or closes and before an undo or redo (Foundation's checkpoint
    /// notification): a context processes its pending changes here, which ends the event group.
    var checkpoint: (() -> Void)?

    /// Creates an empty undo manager.
    public init() {}

    /// Whether there is a group to undo.
    public var canUndo: Bool { !undoStack.isEmpty || !openActions.isEmpty }
    /// Whether there is a group to redo.
    public var canRedo: Bool { !redoStack.isEmpty }
    /// The name of the group ``undo()`` would reverse (the open one, when it has changes).
    public var undoActionName: String {
        if let open = openMarks.first, openActions.count > open.start {
            return openMarks[openMarks.count - 1].name
        }
        return undoStack.lastName
    }
    /// The name of the group ``redo()`` would make again.
    public var redoActionName: String { redoStack.lastName }
    /// How deep the open groups are nested (0: none).
    public var groupingLevel: Int { openMarks.count }
    /// Whether changes are recorded.
    public var isUndoRegistrationEnabled: Bool { disabledCount == 0 }

    /// Opens a group; every change until the matching ``endUndoGrouping()`` undoes together.
    /// The context processes its pending changes first, so the changes before it are a step
    /// of their own.
    public func beginUndoGrouping() {
        checkpoint?()
        openMarks.append((openActions.count, ""))
    }

    /// Closes the innermost group. A closed top-level group with changes becomes undoable. The
    /// context processes its pending changes first (posting its objects-did-change).
    public func endUndoGrouping() {
        checkpoint?()
        closeGroup()
    }

    /// Closes the group opened by a change (see ``groupsByEvent``) when it is the only open
    /// one: the changes since it opened become one undoable step.
    func endEventGroup() {
        guard eventGroupIsOpen, openMarks.count == 1 else { return }
        closeGroup()
    }

    private func closeGroup() {
        guard let mark = openMarks.popLast() else { return }
        if openMarks.isEmpty { eventGroupIsOpen = false }
        if !openMarks.isEmpty {
            // The inner group's actions stay in place: they belong to the parent now.
            if openMarks[openMarks.count - 1].name.isEmpty {
                openMarks[openMarks.count - 1].name = mark.name
            }
        } else {
            if openActions.count > mark.start {
                push(openActions[mark.start...], name: mark.name)
            }
            openActions.removeAll(keepingCapacity: true)
        }
    }

    /// Names the innermost open group (or the last closed one) for menus: "Undo Enroll".
    public func setActionName(_ name: String) {
        if !openMarks.isEmpty {
            openMarks[openMarks.count - 1].name = name
        } else if isUndoing, !redoStack.isEmpty {
            redoStack.setLastName(name)
        } else if !undoStack.isEmpty {
            undoStack.setLastName(name)
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

    /// Reverses the last group (closing the open ones first). Its changes are recorded for
    /// ``redo()``.
    public func undo() {
        checkpoint?()
        while !openMarks.isEmpty { closeGroup() }
        guard let group = undoStack.pop() else { return }
        isUndoing = true
        let reversed = run(group)
        redoStack.push(reversed.actions[...], name: reversed.name)
        isUndoing = false
        didUndoOrRedo?()
    }

    /// Makes the last undone group again.
    public func redo() {
        checkpoint?()
        guard let group = redoStack.pop() else { return }
        isRedoing = true
        let reversed = run(group)
        push(reversed.actions[...], name: reversed.name, clearingRedo: false)
        isRedoing = false
        didUndoOrRedo?()
    }

    /// Forgets every undo and redo action.
    public func removeAllActions() {
        undoStack.removeAll()
        redoStack.removeAll()
        openActions.removeAll()
        openMarks.removeAll()
        eventGroupIsOpen = false
    }

    // MARK: - Recording

    /// Records a closure that reverses a change just made.
    func register(_ body: @escaping () -> Void) {
        record(.perform(body))
    }

    /// Records how to reverse a change just made.
    func record(_ action: Action) {
        guard isUndoRegistrationEnabled else { return }
        if isUndoing || isRedoing {
            collecting?.actions.append(action)
            return
        }
        if openMarks.isEmpty {
            guard groupsByEvent else {
                push(CollectionOfOne(action), name: "")
                return
            }
            openMarks.append((openActions.count, ""))
            eventGroupIsOpen = true
        }
        // A new change: what was undone cannot be redone on top of it.
        if !redoStack.isEmpty { redoStack.removeAll() }
        openActions.append(action)
    }

    /// The group that collects the reversing actions while an undo or redo runs.
    private var collecting: Group?

    private func run(_ group: Group) -> Group {
        collecting = Group(name: group.name)
        for action in group.actions.reversed() { action.run() }
        let reversed = collecting ?? Group(name: group.name)
        collecting = nil
        return reversed
    }

    private func push<C: Collection>(_ actions: C, name: String, clearingRedo: Bool = true)
    where C.Element == Action {
        undoStack.push(actions, name: name)
        if clearingRedo, !isRedoing { redoStack.removeAll() }
        trim()
    }

    private func trim() {
        if levelsOfUndo > 0, undoStack.count > levelsOfUndo {
            undoStack.removeOldest(undoStack.count - levelsOfUndo)
        }
    }
}

/// Groups of undo actions in one flat array (a group is a run of it), so recording a change
/// costs no allocation per group.
struct GroupStack {
    private var actions: [UndoManager.Action] = []
    private var groups: [(start: Int, name: String)] = []

    var isEmpty: Bool { groups.isEmpty }
    var count: Int { groups.count }
    var lastName: String { groups.last?.name ?? "" }

    mutating func setLastName(_ name: String) {
        if !groups.isEmpty { groups[groups.count - 1].name = name }
    }

    mutating func push<C: Collection>(_ newActions: C, name: String)
    where C.Element == UndoManager.Action {
        groups.append((actions.count, name))
        actions.append(contentsOf: newActions)
    }

    mutating func pop() -> UndoManager.Group? {
        guard let last = groups.popLast() else { return nil }
        let group = UndoManager.Group(name: last.name, actions: Array(actions[last.start...]))
        actions.removeSubrange(last.start...)
        return group
    }

    mutating func removeAll() {
        actions.removeAll()
        groups.removeAll()
    }

    /// Forgets the `count` oldest groups.
    mutating func removeOldest(_ count: Int) {
        guard count > 0 else { return }
        let cut = count < groups.count ? groups[count].start : actions.count
        actions.removeFirst(cut)
        groups.removeFirst(min(count, groups.count))
        for index in groups.indices { groups[index].start -= cut }
    }
}
