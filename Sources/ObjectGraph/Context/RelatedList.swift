/// The objects of an ordered to-many relationship of a generated class, in order: reading it
/// reads the relationship, and its mutating methods write through to it (inverse kept in step),
/// so `playlist.songs.append(song)` changes `playlist`.
///
/// ```swift
/// playlist.songs.append(intro)
/// playlist.songs.insert(overture, at: 0)
/// playlist.songs.remove(at: 1)
/// let first = playlist.songs.first
/// ```
///
/// A list made from elements (an array literal, ``init(_:)``) is a plain value until it is
/// assigned to a relationship. Members are compared by identity. Removing at an index out of
/// range is a rejected write (reported at save), not a trap; reading one is an array's error.
public struct RelatedList<Element: ManagedObject>: RandomAccessCollection,
    ExpressibleByArrayLiteral
{
    private var storage: RelatedObjectsStorage<Element>

    /// The live view of `owner`'s relationship `property` (what generated getters return).
    public init(_ owner: ManagedObject, _ property: TypedProperty) {
        storage = RelatedObjectsStorage(owner, property)
    }

    /// A list of `elements` (later duplicates dropped), not tied to a relationship.
    public init(_ elements: some Sequence<Element>) {
        storage = RelatedObjectsStorage(elements)
    }

    /// A list of the listed objects.
    public init(arrayLiteral elements: Element...) {
        self.init(elements)
    }

    /// The members, in order.
    public var members: [Element] { storage.members }

    /// The first position.
    public var startIndex: Int { 0 }
    /// One past the last position.
    public var endIndex: Int { members.count }
    /// The object at `position`.
    public subscript(position: Int) -> Element { members[position] }

    /// Where `object` is, or `nil`.
    public func firstIndex(of object: Element) -> Int? {
        members.firstIndex { $0 === object }
    }

    /// Whether `object` is a member.
    public func contains(_ object: Element) -> Bool {
        firstIndex(of: object) != nil
    }

    /// Adds `object` at the end (an object already a member stays where it is).
    public mutating func append(_ object: Element) {
        insert(object, at: count)
    }

    /// Adds `object` at `index` (an object already a member stays where it is).
    public mutating func insert(_ object: Element, at index: Int) {
        if let live = storage.live {
            live.owner.addRelatedObject(object, live.property, at: index)
            return
        }
        var elements = storage.members
        guard !elements.contains(where: { $0 === object }) else { return }
        elements.insert(object, at: Swift.min(Swift.max(index, 0), elements.count))
        storage.setDetached(elements)
    }

    /// Removes the object at `index`.
    public mutating func remove(at index: Int) {
        if let live = storage.live {
            live.owner.removeRelatedObject(at: index, live.property)
            return
        }
        var elements = storage.members
        guard elements.indices.contains(index) else { return }
        elements.remove(at: index)
        storage.setDetached(elements)
    }

    /// Removes `object`; returns it when it was a member.
    @discardableResult
    public mutating func remove(_ object: Element) -> Element? {
        guard let index = firstIndex(of: object) else { return nil }
        remove(at: index)
        return object
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
