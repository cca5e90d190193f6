import Foundation

/// Key paths of a class that names its properties (``KeyPathNaming``, as generated classes
/// do) wherever a fetch request takes a key.
///
/// ```swift
/// var request = Student.fetchRequest()
/// request.predicate = \Student.gpa >= 3.0
/// request.sortDescriptors = [try SortDescriptor(\Student.name)]
/// try request.prefetchRelationships(\Student.courses)
/// ```
extension FetchRequest where Result: KeyPathNaming {
    /// Adds relationship key paths to ``relationshipKeyPathsForPrefetching``.
    /// - Throws: ``KeyPathNamingError`` for a key path the class does not name (nothing is
    ///   added then).
    public mutating func prefetchRelationships(_ keyPaths: PartialKeyPath<Result>...)
        throws(KeyPathNamingError)
    {
        relationshipKeyPathsForPrefetching += try Self.names(keyPaths)
    }

    /// Sets ``propertiesToFetch`` to the key paths' values (`FetchProperty.key`).
    /// - Throws: ``KeyPathNamingError`` for a key path the class does not name.
    public mutating func fetchProperties(_ keyPaths: PartialKeyPath<Result>...)
        throws(KeyPathNamingError)
    {
        propertiesToFetch = try Self.names(keyPaths).map(FetchProperty.key)
    }

    /// Sets ``propertiesToGroupBy`` to the key paths.
    /// - Throws: ``KeyPathNamingError`` for a key path the class does not name.
    public mutating func groupBy(_ keyPaths: PartialKeyPath<Result>...)
        throws(KeyPathNamingError)
    {
        propertiesToGroupBy = try Self.names(keyPaths)
    }

    private static func names(_ keyPaths: [PartialKeyPath<Result>]) throws(KeyPathNamingError)
        -> [String]
    {
        var names: [String] = []
        for keyPath in keyPaths { names.append(try Result.name(of: keyPath)) }
        return names
    }
}

extension FetchProperty {
    /// A key path's value as a column, named by its model key: `try .key(\Student.name)`.
    /// - Throws: ``KeyPathNamingError`` for a key path the class does not name.
    public static func key<Root: KeyPathNaming>(_ keyPath: PartialKeyPath<Root>)
        throws(KeyPathNamingError) -> FetchProperty
    {
        .key(try Root.name(of: keyPath))
    }
}

extension FetchRequest where Result: KeyPathNaming {
    /// A request whose predicate is Foundation's `#Predicate`, converted (see
    /// ``Predicate/init(_:)``).
    ///
    /// ```swift
    /// let request = try FetchRequest(predicate: #Predicate<Student> { $0.age > 20 })
    /// ```
    /// - Throws: ``FoundationPredicateError`` naming a construct, key path or value with no
    ///   predicate form.
    public init(
        entityName: String? = nil, predicate: Foundation.Predicate<Result>,
        sortDescriptors: [SortDescriptor] = []
    ) throws(FoundationPredicateError) {
        self.init(
            entityName: entityName, predicate: try Predicate(predicate),
            sortDescriptors: sortDescriptors)
    }
}
