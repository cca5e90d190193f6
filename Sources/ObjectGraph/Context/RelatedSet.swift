/// The objects of an unordered to-many relationship of a generated class, as a set: reading it
/// reads the relationship, and its mutating methods write through to it (inverse kept in step),
/// so `course.students.insert(ada)` changes `course`.
///
/// ```swift
/// course.students.insert(ada)
/// course.students.remove(grace)
/// for student in course.students { print(student.name) }
/// course.students = [ada, alan]        // replaces the members
/// ```
///
/// A set made from elements (an array literal, ``init(_:)``) is a plain value until it is
/// assigned to a relationship. Members are compared by identity.
public struct RelatedSet<Element: ManagedObject>: Sequence, ExpressibleByArrayLiteral {
    private var storage: RelatedObjectsStorage<Element>

    /// The live view of `owner`'s relationship `property` (what generated getters return).
    public init(_ owner: ManagedObject, _ property: TypedProperty) {
        storage = RelatedObjectsStorage(owner, property)
    }

    /// A set of `elements` (duplicates dropped), not tied to a relationship.
    public init(_ elements: some Sequence<Element>) {
        storage = RelatedObjectsStorage(elements)
    }

    /// A set of the listed objects.
    public init(arrayLiteral elements: Element...) {
        self.init(elements)
    }

    /// The members, in the relationship's order (insertion order).
    public var members: [Element] { storage.members }

    /// How many objects it holds.
    public var count: Int { members.count }
    /// Whether it holds no object.
    public var isEmpty: Bool { members.isEmpty }

    /// Whether `object` is a member.
    public func contains(_ object: Element) -> Bool {
        members.contains { $0 === object }
    }

    /// Iterates over the members.
    public func makeIterator() -> IndexingIterator<[Element]> {
        members.makeIterator()
    }

    /// Adds `object`; returns whether it was not a member already.
    @discardableResult
    public mutating func insert(_ object: Element) -> Bool {
        if contains(object) { return false }
        if let live = storage.live {
            live.owner.addRelatedObject(object, live.property)
        } else {
            storage.setDetached(storage.members + [object])
        }
        return true
    }

    /// Removes `object`; returns it when it was a member.
    @discardableResult
    public mutating func remove(_ object: Element) -> Element? {
        guard contains(object) else { return nil }
        if let live = storage.live {
            live.owner.removeRelatedObject(object, live.property)
        } else {
            storage.setDetached(storage.members.filter { $0 !== object })
        }
        return object
    }

    /// Adds every object of `objects`.
    public mutating func formUnion(_ objects: some Sequence<Element>) {
        for object in objects { insert(object) }
    }

    /// Removes every object of `objects`.
    public mutating func subtract(_ objects: some Sequence<Element>) {
        for object in objects { remove(object) }
    }

    /// Removes every member.
    public mutating func removeAll() {
        for object in members { remove(object) }
    }

    /// Whether this is the live view of `owner`'s `property`.
    func isLiveView(of owner: ManagedObject, _ property: TypedProperty) -> Bool {
        storage.isLiveView(of: owner, property)
    }
}
