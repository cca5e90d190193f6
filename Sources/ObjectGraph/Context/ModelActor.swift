/// An actor that owns a private-queue context (SwiftData's `ModelActor` pattern): its
/// executor is the context's queue, so its methods use ``context`` synchronously, with
/// `async`/`await` around them.
///
/// ```swift
/// actor Importer: ModelActor {
///     nonisolated let modelExecutor: ContextExecutor
///     init(container: PersistentContainer) {
///         modelExecutor = ContextExecutor(container: container)
///     }
///
///     func importPeople(_ names: [String]) throws -> Int {
///         for name in names { try context.insert("Person").set(name, for: "name") }
///         try context.save()
///         return try context.count(for: FetchRequest(entityName: "Person"))
///     }
/// }
/// let total = try await Importer(container: container).importPeople(["Ann", "Bob"])
/// ```
///
/// The actor's methods and the `perform` blocks of its ``ContextExecutor/backgroundContext``
/// run on the same queue and exclude each other.
public protocol ModelActor: Actor {
    /// The executor running the actor's jobs on its context's queue.
    nonisolated var modelExecutor: ContextExecutor { get }
}

extension ModelActor {
    /// The actor's executor: its context's queue.
    public nonisolated var unownedExecutor: UnownedSerialExecutor {
        modelExecutor.asUnownedSerialExecutor()
    }

    /// The actor's context, for its isolated methods.
    public var context: ManagedContext { modelExecutor.backgroundContext.context }
}
