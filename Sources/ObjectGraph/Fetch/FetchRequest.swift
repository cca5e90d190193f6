/// A description of what to fetch: an entity, a predicate, an order, limits, and what shape of
/// result to return.
///
/// ```swift
/// var request = FetchRequest(entityName: "Student")
/// request.predicate = try Predicate(format: "age > %@ AND name BEGINSWITH[cd] %@", 20, "a")
/// request.sortDescriptors = [SortDescriptor("name")]
/// request.fetchLimit = 10
/// let students = try context.fetch(request)
///
/// let typed = try context.fetch(FetchRequest<Student>())   // a registered subclass
/// ```
///
/// `Sendable`: a request made on one thread may be run by a context on another.
public struct FetchRequest<Result: ManagedObject>: Sendable {
    /// The entity fetched; `nil` means the entity `Result` is registered for.
    public var entityName: String?
    /// Which objects; `nil` means all.
    public var predicate: Predicate?
    /// The order, most significant first; empty means store order.
    public var sortDescriptors: [SortDescriptor] = []
    /// The most objects returned; 0 means no limit.
    public var fetchLimit: Int = 0
    /// How many matching objects to skip first.
    public var fetchOffset: Int = 0
    /// How many objects to load at a time (a hint for stores that load lazily); 0: all.
    public var fetchBatchSize: Int = 0
    /// Whether objects of subentities match too.
    public var includesSubentities: Bool = true
    /// Whether unsaved changes count: unsaved inserts appear, deleted objects do not, and
    /// edited objects are matched by their new values.
    public var includesPendingChanges: Bool = true
    /// Whether objects come back as faults (Core Data's default, `true`): each object made or
    /// loaded by the fetch reports ``ManagedObject/isFault`` until one of its properties is
    /// used, even when its values came with the rows; `false` returns them realized.
    public var returnsObjectsAsFaults: Bool = true
    /// Whether the fetched objects' values are read from the store (Core Data's default,
    /// `true`). With `false` only the IDs of the matching objects are read: objects the
    /// context does not hold come back as faults whose values load on first use, one row per
    /// object. Choose it when the values will not be needed (to delete the objects, or to
    /// count them as objects).
    ///
    /// ```swift
    /// var request = FetchRequest(entityName: "Person")
    /// request.includesPropertyValues = false
    /// for person in try context.fetch(request) { context.delete(person) }
    /// ```
    public var includesPropertyValues: Bool = true
    /// Whether objects the context holds loaded already take the store's current values when
    /// a fetch returns them again (default `false`: they keep the values they have, even when
    /// another context saved new ones since). Unsaved changes stay on top of the new values,
    /// as ``ManagedContext/refresh(_:mergeChanges:)`` with `mergeChanges: true` keeps them.
    ///
    /// ```swift
    /// var request = FetchRequest(entityName: "Person")
    /// request.shouldRefreshRefetchedObjects = true
    /// let people = try context.fetch(request)   // the values another context saved
    /// ```
    public var shouldRefreshRefetchedObjects: Bool = false
    /// For dictionary results: drop duplicate dictionaries.
    public var returnsDistinctResults: Bool = false
    /// For dictionary results: the columns — attributes and to-one relationships by key path
    /// (a relationship's value is the related object's ID), expressions, the object's own ID
    /// (``FetchProperty/objectID(as:)``) and aggregates. `nil`: every attribute. A to-many
    /// relationship is an error, as in Core Data.
    public var propertiesToFetch: [FetchProperty]?
    /// For dictionary results: group rows by these key paths.
    public var propertiesToGroupBy: [String]?
    /// For grouped dictionary results: which groups to keep. The predicate names the fetched
    /// columns by name, as Core Data's variables (`$count > 1`, where `count` is a column's
    /// name) or as keys (`count > 1`).
    public var havingPredicate: Predicate?
    /// Relationship key paths whose objects load together with the results.
    public var relationshipKeyPathsForPrefetching: [String] = []

    /// Creates a request.
    public init(
        entityName: String? = nil, predicate: Predicate? = nil,
        sortDescriptors: [SortDescriptor] = []
    ) {
        self.entityName = entityName
        self.predicate = predicate
        self.sortDescriptors = sortDescriptors
    }
}

/// A column of a dictionary result.
public enum FetchProperty: Sendable, Hashable {
    /// A key path's value (through to-one relationships), named by the key path.
    case key(String)
    /// An aggregate over the rows (or over each group), named `name`.
    case aggregate(AggregateFunction, of: String, as: String)
    /// Any expression evaluated per row, named `name`.
    case expression(Expression, as: String)

    /// The object's own ID, named `name`: Core Data's expression description of the
    /// evaluated object with the object-ID result type.
    ///
    /// ```swift
    /// request.propertiesToFetch = [.objectID(), .key("name")]
    /// let rows = try context.fetchDictionaries(request)  // [["objectID": .objectID(…), "name": …]]
    /// ```
    public static func objectID(as name: String = "objectID") -> FetchProperty {
        .expression(.evaluatedObject, as: name)
    }

    /// The column's name in the result dictionaries.
    public var name: String {
        switch self {
        case .key(let key): return key
        case .aggregate(_, _, let name), .expression(_, let name): return name
        }
    }
}

/// An aggregate function of a dictionary result.
public enum AggregateFunction: String, Sendable, Hashable, CaseIterable {
    /// How many non-nil values.
    case count
    /// The sum of the values.
    case sum
    /// The smallest value.
    case min
    /// The largest value.
    case max
    /// The mean of the values.
    case average
}
