/// Which generation of the stores a context reads (Core Data's `NSQueryGenerationToken`).
///
/// A context pinned to a generation (``ManagedContext/setQueryGenerationFrom(_:)``) sees one
/// consistent snapshot of its stores in every fetch, count and fault, whatever other contexts
/// and coordinators save meanwhile, until it moves to the newest generation. ``current`` asks
/// for the newest; a context's ``ManagedContext/queryGenerationToken`` names the generation it
/// is pinned to, and another context of the same coordinator can be pinned to it too.
///
/// ```swift
/// try context.setQueryGenerationFrom(.current)        // pinned to the stores as they are now
/// let token = context.queryGenerationToken!
/// try other.setQueryGenerationFrom(token)             // the same snapshot
/// try context.setQueryGenerationFrom(nil)             // unpinned: reads see every save
/// ```
///
/// A token holds its generation: while any token or context holds it, its snapshot (for a
/// SQLite store, a read transaction on a connection of its own) stays open, and SQLite cannot
/// checkpoint the `-wal` past it, so the `-wal` grows with what others save meanwhile. Let
/// go of generations you no longer read.
public struct QueryGenerationToken: Sendable, Hashable, CustomStringConvertible {
    /// The generation; `nil` for ``current``.
    let generation: StoreGeneration?

    init(_ generation: StoreGeneration?) { self.generation = generation }

    /// Asks for the newest generation: a context given it is pinned to the stores as they
    /// are at that moment.
    public static let current = QueryGenerationToken(nil)

    /// Two tokens are equal when they name the same generation (or both are ``current``).
    public static func == (lhs: QueryGenerationToken, rhs: QueryGenerationToken) -> Bool {
        lhs.generation === rhs.generation
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(generation.map(ObjectIdentifier.init))
    }

    /// `current`, or the generation's number, counted across the process (`generation 3`).
    public var description: String {
        generation.map { "generation \($0.number)" } ?? "current"
    }
}
