import Foundation

/// Keeps the results of a fetch request up to date, in sections, and says how they changed:
/// Core Data's `NSFetchedResultsController`.
///
/// Give it a request with sort descriptors and, to group the results, a section name key
/// path whose order follows the first sort descriptor's. After ``performFetch()`` it follows
/// its context: after each change that touches the results — the context's own changes when
/// it processes them (``ManagedContext/processPendingChanges()``, which saves, undo and redo
/// call), merges of other contexts' saves, rollbacks, resets — it brings them up to date and
/// tells ``onChange`` and its ``delegate`` how they changed (a ``ResultsDifference``).
///
/// ```swift
/// var request = FetchRequest<Student>()
/// request.sortDescriptors = [SortDescriptor("year"), SortDescriptor("name")]
/// let controller = try FetchedResultsController(
///     context: context, fetchRequest: request, sectionNameKeyPath: "year")
/// try controller.performFetch()
/// controller.onChange = { difference in apply(difference) }
/// let first = try controller.object(at: ResultsIndexPath(row: 0, section: 0))
/// ```
///
/// A small change is applied in place: the changed objects are tested by their current values
/// (the predicate evaluated in memory) and filed by binary search, without fetching the other
/// results again. A change to more than an eighth of the results (and more than 64 objects),
/// a reset, and any change with ``FetchRequest/fetchLimit`` or ``FetchRequest/fetchOffset``
/// set (the window's neighbours are not held) or with ``FetchRequest/includesPendingChanges``
/// `false` (the results follow the saved values, so after saves and merges) fetches again and
/// reports the difference from before. As in Core Data, a change to a related object (the
/// `advisor` of `advisor.name`) does not count as a change of the objects that reach it.
///
/// Objects that tie on every sort key keep one order for as long as they stay in the results
/// (it is not the store's order). Not `Sendable`: use it on its context's thread;
/// ``snapshots`` carries the results as IDs to any task.
public final class FetchedResultsController<T: ManagedObject> {
    /// The context followed.
    public let context: ManagedContext
    /// The request whose results are kept.
    public let fetchRequest: FetchRequest<T>
    /// The key path grouping the results into sections, or `nil` for one section.
    public let sectionNameKeyPath: String?
    /// Told of each change of the results, after ``onChange``.
    public weak var delegate: (any FetchedResultsControllerDelegate)?
    /// Called with each change of the results (not for changes that leave them as they were).
    public var onChange: ((ResultsDifference) -> Void)?
    /// The error of the last update that failed (a predicate or sort key that cannot be
    /// evaluated on a changed object, a failed refetch); the results stay as they were then.
    public private(set) var lastUpdateError: (any Error)?

    private let tracker: ResultsTracker<T>
    private var observation: ContextObservation?
    private var mergeObservation: ContextObservation?
    private var continuations: [UUID: AsyncStream<ResultsSnapshot>.Continuation] = [:]

    /// Creates a controller; nothing is fetched until ``performFetch()``.
    /// - Throws: ``FetchedResultsError/noSortDescriptors(entity:)`` when the request has no
    ///   sort descriptors, ``FetchedResultsError/invalidSectionKeyPath(_:reason:)``, or
    ///   ``ObjectGraphError`` for a sort key that is not a key path.
    public init(
        context: ManagedContext, fetchRequest: FetchRequest<T>, sectionNameKeyPath: String? = nil
    ) throws {
        self.context = context
        self.fetchRequest = fetchRequest
        self.sectionNameKeyPath = sectionNameKeyPath
        tracker = try ResultsTracker(request: fetchRequest, sectionNameKeyPath: sectionNameKeyPath)
    }

    /// Creates a controller whose sections are named by a key path of a generated class.
    ///
    /// ```swift
    /// let controller = try FetchedResultsController(
    ///     context: context, fetchRequest: Student.fetchRequest(), sectionNameKeyPath: \Student.year)
    /// ```
    /// - Throws: ``FetchedResultsError/unnamedKeyPath(keyPath:type:)`` when the key path names
    ///   no model property, and what ``init(context:fetchRequest:sectionNameKeyPath:)`` throws.
    public convenience init<Value>(
        context: ManagedContext, fetchRequest: FetchRequest<T>,
        sectionNameKeyPath: KeyPath<T, Value>
    ) throws where T: KeyPathNaming {
        guard let name = T.propertyName(for: sectionNameKeyPath) else {
            throw FetchedResultsError.unnamedKeyPath(
                keyPath: String(describing: sectionNameKeyPath), type: String(describing: T.self))
        }
        try self.init(context: context, fetchRequest: fetchRequest, sectionNameKeyPath: name)
    }

    /// Fetches the results, and starts following the context.
    /// - Throws: what ``ManagedContext/fetch(_:)`` throws, or the evaluation error of a sort
    ///   or section key path.
    public func performFetch() throws {
        try tracker.fetch(in: context)
        lastUpdateError = nil
        if observation == nil {
            observation = context.observe { [weak self] notification in
                guard let self else { return }
                report { try self.tracker.update(with: notification, in: self.context) }
            }
            mergeObservation = context.observeMerges { [weak self] change in
                guard let self else { return }
                report { try self.tracker.updateAfterMerge(change, in: self.context) }
            }
        }
        publish()
    }

    /// The results in order, section after section; `nil` before ``performFetch()``.
    public var fetchedObjects: [T]? {
        guard tracker.fetched else { return nil }
        return tracker.sections.flatMap(\.objects)
    }

    /// The sections; `nil` before ``performFetch()``. Without a section key path there is
    /// one section, named `""`, even when it is empty.
    public var sections: [FetchedResultsSection<T>]? {
        guard tracker.fetched else { return nil }
        return tracker.sections.map { FetchedResultsSection(name: $0.name, objects: $0.objects) }
    }

    /// The results as IDs (`Sendable`); `nil` before ``performFetch()``.
    public var snapshot: ResultsSnapshot? { tracker.fetched ? tracker.snapshot() : nil }

    /// How many times every result was fetched (``performFetch()`` and the updates that
    /// fetch again): a measure of the work updates take, and what a test of incremental
    /// updates counts.
    public var fullFetchCount: Int { tracker.fullFetches }

    /// The object at `indexPath`.
    /// - Throws: ``FetchedResultsError/indexPathOutOfRange(_:sectionCounts:)``.
    public func object(at indexPath: ResultsIndexPath) throws -> T {
        let sections = tracker.sections
        guard sections.indices.contains(indexPath.section),
            sections[indexPath.section].objects.indices.contains(indexPath.row)
        else {
            throw FetchedResultsError.indexPathOutOfRange(
                indexPath, sectionCounts: sections.map(\.objects.count))
        }
        return sections[indexPath.section].objects[indexPath.row]
    }

    /// Where `object` is in the results, or `nil` when it is not in them.
    public func indexPath(for object: T) -> ResultsIndexPath? {
        tracker.indexPath(of: object)
    }

    /// The results as a snapshot now (after ``performFetch()``) and after each change that
    /// alters them (objects entering, leaving or moving, sections, or the IDs a save makes
    /// permanent), not after changes that leave them as they were. A slow reader gets the
    /// newest snapshot, not every one. Ends when the controller goes.
    ///
    /// ```swift
    /// for await snapshot in controller.snapshots { show(snapshot) }
    /// ```
    public var snapshots: AsyncStream<ResultsSnapshot> {
        let (stream, continuation) = AsyncStream<ResultsSnapshot>.makeStream(
            bufferingPolicy: .bufferingNewest(1))
        if tracker.fetched { continuation.yield(tracker.snapshot()) }
        continuations[UUID()] = continuation
        return stream
    }

    /// Runs one update of the results and tells the listeners what it changed.
    private func report(_ update: () throws -> ResultsTracker<T>.Outcome) {
        let outcome: ResultsTracker<T>.Outcome
        do {
            outcome = try update()
        } catch {
            lastUpdateError = error
            return
        }
        if let difference = outcome.difference, !difference.isEmpty {
            onChange?(difference)
            delegate?.controller(self, didChangeContentWith: difference)
        }
        if outcome.idsChanged || outcome.difference?.changesIDs == true { publish() }
    }

    private func publish() {
        guard !continuations.isEmpty else { return }
        let snapshot = tracker.snapshot()
        for (key, continuation) in continuations {
            if case .terminated = continuation.yield(snapshot) { continuations[key] = nil }
        }
    }

    deinit {
        for continuation in continuations.values { continuation.finish() }
    }
}

/// Told how a fetched-results controller's results changed (Core Data's
/// `controller(_:didChangeContentWith:)`).
public protocol FetchedResultsControllerDelegate: AnyObject {
    /// The results of `controller` changed as `difference` says.
    func controller(_ controller: AnyObject, didChangeContentWith difference: ResultsDifference)
}

/// One section of a fetched-results controller's results (Core Data's section info).
public struct FetchedResultsSection<T: ManagedObject> {
    /// The section's name: its objects' section key path value as text (`""` for nil, and
    /// for the one section of a controller without a section key path).
    public let name: String
    /// The section's objects, in order.
    public let objects: [T]
    /// How many objects the section holds.
    public var count: Int { objects.count }
}
