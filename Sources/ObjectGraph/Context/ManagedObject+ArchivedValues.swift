import Foundation
import KeyedArchive

extension ManagedObject {
    /// The value archived with `NSKeyedArchiver` in the Transformable (or Binary) attribute
    /// `key`, as Core Data's default transformer stores it; `nil` when the attribute is nil.
    ///
    /// ```swift
    /// if case .date(let when)? = try property.archivedValue(for: "value") { print(when) }
    /// ```
    /// - Throws: ``ObjectGraphError/typeMismatch(entity:property:expected:got:)`` naming the
    ///   byte or archive object when the bytes are not such an archive.
    public func archivedValue(for key: String) throws -> ArchivedAttributeValue? {
        try transformableAttribute(key)
        guard case .data(let data) = try value(for: key) else { return nil }
        do {
            return try FoundationArchive.decode(data)
        } catch {
            throw ObjectGraphError.typeMismatch(
                entity: schema.name, property: key, expected: "an NSKeyedArchiver archive",
                got: error.description)
        }
    }

    /// Stores `value` in the Transformable (or Binary) attribute `key` as the `NSKeyedArchiver`
    /// archive Foundation writes. The archive the attribute held is the pattern: a value read
    /// from it and stored unchanged gives the same bytes, a changed one keeps its class names
    /// and layout; an object of an unknown class is stored as it was archived.
    ///
    /// ```swift
    /// try property.setArchivedValue(.array([.string("a"), .number(.integer(2))]), for: "value")
    /// ```
    /// - Throws: ``ObjectGraphError`` for a key that is not such an attribute or an archive
    ///   kept in the value that cannot be read.
    public func setArchivedValue(_ value: ArchivedAttributeValue?, for key: String) throws {
        try transformableAttribute(key)
        guard let value else {
            try set(nil, for: key)
            return
        }
        var previous: Data?
        if case .data(let data) = try self.value(for: key) { previous = data }
        do {
            try set(try FoundationArchive.encode(value, like: previous), for: key)
        } catch let error as KeyedArchiveError {
            throw ObjectGraphError.typeMismatch(
                entity: schema.name, property: key, expected: "a value NSKeyedArchiver archives",
                got: error.description)
        }
    }
}
