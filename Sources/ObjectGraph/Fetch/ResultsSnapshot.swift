/// The results of a fetch request at one moment, as IDs: each section's name and its objects'
/// IDs in order (the shape of a diffable data source's snapshot). `Sendable`: hand it to any
/// task or actor, and turn IDs back into objects there with `context.object(with:)`.
///
/// ```swift
/// for try await snapshot in context.results(of: request, sectionNameKeyPath: "department") {
///     for section in snapshot.sections { print(section.name, section.ids.count) }
/// }
/// ```
public struct ResultsSnapshot: Sendable, Hashable {
    /// One section: its name and its objects' IDs, in order.
    public struct Section: Sendable, Hashable {
        /// The section's name: the section key path's value (`""` for nil, or when the
        /// controller has no section key path).
        public var name: String
        /// The IDs of the section's objects, in order.
        public var ids: [ObjectID]

        /// Creates a section.
        public init(name: String, ids: [ObjectID]) {
            self.name = name
            self.ids = ids
        }
    }

    /// The sections, in order.
    public var sections: [Section]

    /// Creates a snapshot.
    public init(sections: [Section]) { self.sections = sections }

    /// Every ID, section after section.
    public var ids: [ObjectID] { sections.flatMap(\.ids) }
}
