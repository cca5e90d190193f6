import Foundation
import KeyedArchive

/// The transformer of Core Data's default for Transformable attributes,
/// `NSSecureUnarchiveFromData` (and the older `NSKeyedUnarchiveFromData`): an
/// ``ArchivedAttributeValue`` to and from its `NSKeyedArchiver` archive, written as Foundation
/// writes it.
///
/// It is not registered by default (``ManagedObject/setCodable(_:for:)`` keeps its
/// property-list archives); register it to read and write archives through the
/// ``ValueTransformer`` interface, or use ``ManagedObject/archivedValue(for:)`` directly.
///
/// ```swift
/// ValueTransformers.shared.register(KeyedArchiveTransformer(), named: KeyedArchiveTransformer.name)
/// ```
public struct KeyedArchiveTransformer: ValueTransformer {
    /// `NSSecureUnarchiveFromData`.
    public static let name = "NSSecureUnarchiveFromData"

    /// Creates the transformer.
    public init() {}

    /// The archive of `value`, an ``ArchivedAttributeValue``.
    /// - Throws: ``ObjectGraphError/unsupported(_:)`` for a value of another type;
    ///   `KeyedArchiveError` when an archive kept in the value cannot be read.
    public func encode(_ value: any Sendable) throws -> Data {
        guard let archived = value as? ArchivedAttributeValue else {
            throw ObjectGraphError.unsupported(
                "\(Self.name) archives an ArchivedAttributeValue, not a \(type(of: value))")
        }
        return try FoundationArchive.encode(archived)
    }

    /// The ``ArchivedAttributeValue`` archived in `data`.
    /// - Throws: `KeyedArchiveError` naming the byte or archive object that is malformed.
    public func decode(_ data: Data) throws -> any Sendable {
        try FoundationArchive.decode(data)
    }
}
