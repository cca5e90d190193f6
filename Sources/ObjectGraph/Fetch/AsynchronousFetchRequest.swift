/// A fetch that runs in batches on its context's queue, reports progress and can be cancelled
/// (Core Data's `NSAsynchronousFetchRequest`). ``ManagedContext/execute(_:)->FetchProgress`` returns at once
/// with a ``FetchProgress``; the objects reach ``completion`` on the context's queue.
///
/// ```swift
/// var people = FetchRequest(entityName: "Person")
/// people.sortDescriptors = [SortDescriptor("name")]
/// let request = AsynchronousFetchRequest(fetchRequest: people) { result in
///     guard let people = result.finalResult else { return }   // cancelled or failed
///     print(people.count)
/// }
/// let progress = try context.execute(request)
/// ```
public struct AsynchronousFetchRequest<Result: ManagedObject>: Sendable {
    /// What to fetch: the objects are exactly those, in the order, that
    /// ``ManagedContext/fetch(_:)`` gives for it.
    public var fetchRequest: FetchRequest<Result>
    /// How many objects each batch loads (256 unless set; at least 1). The fetch checks for
    /// cancellation and reports progress between batches.
    public var batchSize: Int
    /// Called on the context's queue after the matching objects are counted and after each
    /// batch (cancelling from here stops the fetch before its next batch).
    public var progressHandler: (@Sendable (FetchProgress) -> Void)?
    /// Called once, on the context's queue, with the objects, the error, or the cancellation.
    public var completion: @Sendable (AsynchronousFetchResult<Result>) -> Void

    /// A request for `fetchRequest`'s objects, loaded `batchSize` at a time.
    public init(
        fetchRequest: FetchRequest<Result>, batchSize: Int = 256,
        progressHandler: (@Sendable (FetchProgress) -> Void)? = nil,
        completion: @escaping @Sendable (AsynchronousFetchResult<Result>) -> Void
    ) {
        self.fetchRequest = fetchRequest
        self.batchSize = batchSize
        self.progressHandler = progressHandler
        self.completion = completion
    }
}

/// What an asynchronous fetch gives its completion (Core Data's `NSAsynchronousFetchResult`):
/// the objects, or why there are none. Not `Sendable`: it holds the context's objects, and is
/// used on the context's queue.
public struct AsynchronousFetchResult<Result: ManagedObject> {
    /// The context that fetched (Core Data's `managedObjectContext`).
    public let context: ManagedContext
    /// The request's fetch.
    public let fetchRequest: FetchRequest<Result>
    /// The fetch's progress, finished.
    public let progress: FetchProgress
    /// The objects, or the error: the fetch's own (an unknown key in the predicate, a store
    /// error) or ``AsynchronousFetchError/cancelled(completedUnitCount:totalUnitCount:)``.
    public let result: Swift.Result<[Result], any Error>

    /// The objects; `nil` when the fetch failed or was cancelled.
    public var finalResult: [Result]? { try? result.get() }
    /// Why there are no objects; `nil` when the fetch finished.
    public var operationError: (any Error)? {
        if case .failure(let error) = result { return error }
        return nil
    }
    /// Whether the fetch was cancelled.
    public var isCancelled: Bool { operationError is AsynchronousFetchError }
}

/// Why an asynchronous fetch ended without its objects, other than its own errors.
public enum AsynchronousFetchError: Error, Sendable, Hashable, CustomStringConvertible {
    /// ``FetchProgress/cancel()`` stopped it after `completedUnitCount` of `totalUnitCount`
    /// objects were loaded.
    case cancelled(completedUnitCount: Int, totalUnitCount: Int)

    public var description: String {
        switch self {
        case .cancelled(let completed, let total):
            return "the asynchronous fetch was cancelled after \(completed) of \(total) objects"
        }
    }
}
