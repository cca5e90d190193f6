/// A private-queue context you can hold anywhere: it is `Sendable`, and work enters its
/// context only through `perform` and `performAndWait` (Core Data's background contexts).
///
/// ```swift
/// let background = container.newBackgroundContext()
/// let count = try await background.perform { context in
///     for name in ["Ann", "Bob"] { try context.insert("Person").set(name, for: "name") }
///     try context.save()
///     return try context.count(for: FetchRequest(entityName: "Person"))
/// }
/// ```
///
/// What a block returns must be `Sendable`: returning the context or one of its objects does
/// not compile (`conformance of 'ManagedObject' to 'Sendable' is unavailable`); return object
/// IDs and values. A block that throws rethrows its error to the caller and leaves the context
/// as the block left it (unsaved changes stay; call `rollback()` to drop them).
public final class BackgroundContext: @unchecked Sendable {
    // `@unchecked`: `context` is touched only inside its queue — by the blocks of `perform`
    // and `performAndWait` (run under the queue's gate, see `ContextQueue`), by a
    // `ContextExecutor`'s jobs (the same queue), and by work queued with `enqueue`.
    // Everything else here is immutable.

    /// The private-queue context (used only inside its queue).
    let context: ManagedContext

    /// A new private-queue context on `coordinator`.
    ///
    /// ```swift
    /// let background = BackgroundContext(coordinator: coordinator)
    /// ```
    public init(coordinator: StoreCoordinator, classes: ManagedObjectClasses = .shared) {
        context = ManagedContext(
            coordinator: coordinator, concurrencyType: .privateQueue, classes: classes)
    }

    /// A new private-queue child of `parent`'s context: it reads through the parent and saves
    /// into it (see ``ManagedContext/init(parent:concurrencyType:classes:undoManager:)``); every
    /// call into the parent enters the parent's queue.
    ///
    /// ```swift
    /// let importer = container.newBackgroundContext()
    /// let batch = BackgroundContext(parent: importer)   // saves into `importer`
    /// ```
    public convenience init(parent: BackgroundContext) {
        // `parent.context` is only handed to the child, which reaches it through
        // `performAndWait` (ParentContextSource.withParent).
        self.init(wrapping: ManagedContext(parent: parent.context, concurrencyType: .privateQueue))
    }

    /// A new private-queue child of `container`'s view context (Core Data's editing or import
    /// context over the view context): its saves become the view context's unsaved changes,
    /// delivered on the main queue.
    ///
    /// ```swift
    /// let editor = BackgroundContext(viewContextOf: container)
    /// try await editor.perform { context in
    ///     try context.insert("Course").set("Algebra", for: "title")
    ///     try context.save()                // now an unsaved insert of the view context
    /// }
    /// ```
    @MainActor public convenience init(viewContextOf container: PersistentContainer) {
        self.init(
            wrapping: ManagedContext(
                parent: container.viewContext, concurrencyType: .privateQueue))
    }

    /// Wraps `context`, which must be a private-queue context no one else holds.
    init(wrapping context: ManagedContext) {
        self.context = context
    }

    /// The coordinator the context saves to and fetches from.
    public var coordinator: StoreCoordinator { context.coordinator }

    /// The context's ``ManagedContext/name`` (read inside its queue; set it in a block:
    /// `background.perform { $0.name = "import" }`).
    public var name: String? { context.performAndWait { context.name } }

    /// Runs `body` with the context on its queue and returns its value, rethrowing its error
    /// (Core Data's `perform`, as an `async` call). The caller waits without blocking a thread.
    ///
    /// ```swift
    /// let id = try await background.perform { context in
    ///     let person = try context.insert("Person")
    ///     try context.save()
    ///     return person.objectID
    /// }
    /// ```
    public func perform<T: Sendable, E: Error>(
        _ body: @escaping @Sendable (ManagedContext) throws(E) -> T
    ) async throws(E) -> T {
        let result = await withCheckedContinuation {
            (done: CheckedContinuation<Result<T, E>, Never>) in
            context.queue.runAsync { [self] in
                do throws(E) {
                    done.resume(returning: .success(try body(context)))
                } catch {
                    done.resume(returning: .failure(error))
                }
            }
        }
        return try result.get()
    }

    /// Runs `body` with the context on its queue and waits for it (Core Data's
    /// `performAndWait`): on the calling thread once the queue is free, inline when the thread
    /// is inside the queue already (see ``ManagedContext/performAndWait(_:)``).
    ///
    /// ```swift
    /// let count = try background.performAndWait { context in
    ///     try context.count(for: FetchRequest(entityName: "Person"))
    /// }
    /// ```
    public func performAndWait<T: Sendable, E: Error>(
        _ body: (ManagedContext) throws(E) -> T
    ) throws(E) -> T {
        try context.performAndWait { () throws(E) -> T in try body(context) }
    }

    /// Runs `body` with the context on its queue later and returns at once (Core Data's
    /// fire-and-forget `perform`). Blocks run in the order they were handed over.
    ///
    /// ```swift
    /// background.perform { context in
    ///     try? context.insert("Person").set("Ann", for: "name")
    ///     try? context.save()
    /// }
    /// ```
    public func perform(_ body: @escaping @Sendable (ManagedContext) -> Void) {
        context.queue.runAsync { [self] in body(context) }
    }
}
