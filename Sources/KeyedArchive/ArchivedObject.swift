/// An object of a keyed archive whose class has no plain-value form (`NSKeyPathExpression`,
/// `NSEntityDescription`, an app's class…): its class, its superclasses and its fields, which
/// are decoded one at a time, when asked for, as `NSKeyedUnarchiver`'s `decodeObject(forKey:)`
/// does. Objects may refer to each other in cycles (an entity and its relationships' entities);
/// ``index`` tells objects apart so a reader can stop where it has been.
///
/// ```swift
/// if object.isKind(of: "NSExpression"), let type = try object.value(forKey: "NSExpressionType")?.integer {
///     print(type)
/// }
/// ```
public struct ArchivedObject: Sendable, Hashable {
    /// The object's place in the archive's `$objects`: equal for the same object.
    public let index: Int
    /// The class name the archive records (`$classname`).
    public let className: String
    /// The class and its superclasses, as recorded (`$classes`).
    public let classes: [String]
    let fields: [String: PropertyListObject]
    let archive: KeyedArchive

    /// The field names, sorted (without the archive's own `$class`).
    public var keys: [String] {
        fields.keys.filter { $0 != "$class" }.sorted()
    }

    /// Whether the object's class is `name` or a subclass of it.
    public func isKind(of name: String) -> Bool {
        className == name || classes.contains(name)
    }

    /// The field `key`, decoded (`nil` when the object has no such field).
    /// - Throws: ``KeyedArchiveError/malformedObject(index:reason:)`` when what the field
    ///   refers to is malformed.
    public func value(forKey key: String) throws(KeyedArchiveError) -> ArchivedValue? {
        guard let field = fields[key] else { return nil }
        return try archive.decode(field, in: index)
    }

    /// Equal when the same object of the same archive.
    public static func == (lhs: ArchivedObject, rhs: ArchivedObject) -> Bool {
        lhs.index == rhs.index && lhs.archive === rhs.archive
    }

    /// Hashes the object's identity.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(index)
        hasher.combine(ObjectIdentifier(archive))
    }
}
