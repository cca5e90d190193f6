/// Asynchronous fetches (Core Data's `execute(_:)` of an `NSAsynchronousFetchRequest`): the
/// matching objects are found first (their IDs, in order), then loaded in batches, each batch
/// a separate piece of work on the context's queue, so progress advances, cancellation is
/// checked and other work on the queue runs between batches.
extension ManagedContext {
    /// Starts `request` and returns its progress at once; the batches run on the context's
    /// queue, and the request's completion gets the objects there — exactly the objects, in
    /// the same order, that ``fetch(_:)`` gives for its fetch request — or the error, or
    /// the cancellation.
    ///
    /// ```swift
    /// let request = AsynchronousFetchRequest(fetchRequest: FetchRequest(entityName: "Person"))
    /// { result in print(result.finalResult?.count ?? 0) }
    /// let progress = try context.execute(request)
    /// ```
    ///
    /// Other work on the queue (a save, a merge) can run between batches. A context pinned to
    /// a query generation (``setQueryGenerationFrom(_:)``) reads every batch from one snapshot
    /// as long as it does not save or merge meanwhile. An unsaved insert saved between batches
    /// is still given; an object deleted before its batch is loaded is left out.
    ///
    /// - Throws: ``ObjectGraphError`` when the request names no entity of the model (nothing
    ///   runs); errors while fetching (an unknown key in the predicate, a store error) reach
    ///   the completion instead.
    @discardableResult
    public func execute<T: ManagedObject>(_ request: AsynchronousFetchRequest<T>) throws
        -> FetchProgress
    {
        _ = try fetchEntity(request.fetchRequest)
        let fetch = AsynchronousFetch(request: request, progress: FetchProgress())
        enqueue { context in context.startAsynchronousFetch(fetch) }
        return fetch.progress
    }

    /// The first step: the matching objects' IDs, in order.
    private func startAsynchronousFetch<T>(_ fetch: AsynchronousFetch<T>) {
        if fetch.progress.isCancelled {
            return finishAsynchronousFetch(fetch, .failure(cancelled(fetch)))
        }
        let request = fetch.request.fetchRequest
        do {
            if request.shouldRefreshRefetchedObjects { fetch.heldLoaded = loadedObjectIDs() }
            let matching = try matchingObjects(request, result: .ids)
            fetch.ids = matching.map(\.objectID)
            // Unsaved inserts are held: a save between batches gives them other IDs.
            for object in matching where object.objectID.isTemporary {
                fetch.inserted[object.objectID] = object
            }
            fetch.objects.reserveCapacity(matching.count)
        } catch {
            return finishAsynchronousFetch(fetch, .failure(error))
        }
        fetch.progress.report(completed: 0, total: fetch.ids.count)
        fetch.request.progressHandler?(fetch.progress)
        enqueue { context in context.continueAsynchronousFetch(fetch) }
    }

    /// One batch: the next objects, loaded with one query per store.
    private func continueAsynchronousFetch<T>(_ fetch: AsynchronousFetch<T>) {
        let done = fetch.next
        if done == fetch.ids.count {
            return finishAsynchronousFetch(fetch, .success(fetch.objects))
        }
        if fetch.progress.isCancelled {
            return finishAsynchronousFetch(fetch, .failure(cancelled(fetch)))
        }
        let request = fetch.request.fetchRequest
        let end = min(done + max(fetch.request.batchSize, 1), fetch.ids.count)
        do {
            var batch: [ManagedObject] = []
            batch.reserveCapacity(end - done)
            for id in fetch.ids[done..<end] {
                if let object = fetch.inserted[id] ?? registry[id] {
                    batch.append(object)
                } else if !id.isTemporary {
                    batch.append(try object(with: id))
                }
            }
            if request.includesPropertyValues || !request.relationshipKeyPathsForPrefetching.isEmpty
            {
                try loadFaults(batch)
                // A fault still is an object deleted since its ID was found.
                batch.removeAll { $0.state == .fault && !$0.objectID.isTemporary }
            }
            for object in batch where fetch.heldLoaded.contains(object.objectID) {
                try refresh(object, mergeChanges: true)
            }
            if !request.relationshipKeyPathsForPrefetching.isEmpty {
                try prefetch(batch, keyPaths: request.relationshipKeyPathsForPrefetching)
            }
            if !request.returnsObjectsAsFaults {
                for object in batch where object.state == .loaded { object.isUnfired = false }
            }
            fetch.objects += batch.compactMap { $0 as? T }
            fetch.next = end
        } catch {
            return finishAsynchronousFetch(fetch, .failure(error))
        }
        fetch.progress.report(completed: end, total: fetch.ids.count)
        fetch.request.progressHandler?(fetch.progress)
        if end == fetch.ids.count {
            // Loaded: done, whatever a cancellation from the handler now asks.
            return finishAsynchronousFetch(fetch, .success(fetch.objects))
        }
        enqueue { context in context.continueAsynchronousFetch(fetch) }
    }

    private func cancelled<T>(_ fetch: AsynchronousFetch<T>) -> AsynchronousFetchError {
        .cancelled(
            completedUnitCount: fetch.progress.completedUnitCount, totalUnitCount: fetch.ids.count)
    }

    /// Hands the outcome to the completion and ends the progress.
    private func finishAsynchronousFetch<T>(
        _ fetch: AsynchronousFetch<T>, _ result: Result<[T], any Error>
    ) {
        fetch.objects = []
        fetch.ids = []
        fetch.inserted = [:]
        fetch.request.completion(
            AsynchronousFetchResult(
                context: self, fetchRequest: fetch.request.fetchRequest, progress: fetch.progress,
                result: result))
        fetch.progress.finish(cancelled: result.isCancellation)
    }
}

/// The state of one asynchronous fetch between its batches.
final class AsynchronousFetch<T: ManagedObject>: @unchecked Sendable {
    // Unchecked: the batches of one fetch touch `ids`, `objects` and `heldLoaded` (objects of
    // the context), and each runs on the context's queue, one after another; nothing else
    // reads them. `request` and `progress` are Sendable.

    let request: AsynchronousFetchRequest<T>
    let progress: FetchProgress
    /// The matching objects, in order.
    var ids: [ObjectID] = []
    /// The index in `ids` of the next batch's first object.
    var next = 0
    /// The objects of the batches loaded so far (held, so the context keeps them).
    var objects: [T] = []
    /// The objects the context held loaded when the fetch began (refreshed as they come, for
    /// a request that refreshes refetched objects).
    var heldLoaded: Set<ObjectID> = []
    /// The unsaved inserts among the matching objects, by their IDs when the fetch began.
    var inserted: [ObjectID: ManagedObject] = [:]

    init(request: AsynchronousFetchRequest<T>, progress: FetchProgress) {
        self.request = request
        self.progress = progress
    }
}

extension Result where Failure == any Error {
    /// Whether this is an asynchronous fetch's cancellation.
    fileprivate var isCancellation: Bool {
        if case .failure(let error) = self { return error is AsynchronousFetchError }
        return false
    }
}
