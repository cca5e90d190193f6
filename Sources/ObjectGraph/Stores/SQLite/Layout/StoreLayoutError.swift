/// Why a model cannot be laid out as a Core Data SQLite store.
///
/// ```swift
/// do { _ = try StoreLayout(model: model) }
/// catch let error as StoreLayoutError { print(error) }  // Course.teacher: destination …
/// ```
public struct StoreLayoutError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What kind of problem it is.
    public enum Kind: String, Sendable, Hashable {
        /// Two entities share a name.
        case duplicateEntity
        /// An entity's parent does not exist, or the parents form a cycle.
        case invalidInheritance
        /// A relationship's destination or inverse does not exist.
        case missingEntityOrProperty
        /// An attribute's type cannot be stored (composite, object ID, unknown spelling).
        case unsupportedAttributeType
        /// Two tables would get the same name.
        case tableNameCollision
        /// An index or constraint names a property that has no column.
        case invalidIndex
    }

    /// What kind of problem it is.
    public let kind: Kind
    /// The entity concerned, and the property when there is one.
    public let entity: String, property: String?
    /// What is wrong, in one sentence.
    public let message: String

    /// Creates an error.
    public init(_ kind: Kind, entity: String, property: String? = nil, _ message: String) {
        self.kind = kind
        self.entity = entity
        self.property = property
        self.message = message
    }

    /// `Entity.property: message`.
    public var description: String {
        let place = property.map { "\(entity).\($0)" } ?? entity
        return "\(place): \(message)"
    }
}
