import Archive
import Foundation

/// Turns values of Transformable attributes into data and back.
///
/// Register one under the name a model gives in `valueTransformerName`; attributes without a
/// registered transformer (including `NSSecureUnarchiveFromData`, the default) store `Codable`
/// values as property-list archives — the same coder as the `Archive` module's.
///
/// ```swift
/// struct Hex: ValueTransformer {
///     func encode(_ value: any Sendable) throws -> Data { … }
///     func decode(_ data: Data) throws -> any Sendable { … }
/// }
/// ValueTransformers.shared.register(Hex(), named: "ColorTransformer")
/// ```
public protocol ValueTransformer: Sendable {
    /// The stored form of `value`.
    func encode(_ value: any Sendable) throws -> Data
    /// The value stored as `data`.
    func decode(_ data: Data) throws -> any Sendable
}

/// The registry of named ``ValueTransformer``s.
public final class ValueTransformers: @unchecked Sendable {
    // `lock` protects `byName`.
    private let lock = NSLock()
    private var byName: [String: any ValueTransformer] = [:]

    /// The registry managed objects use.
    public static let shared = ValueTransformers()

    /// Creates an empty registry.
    public init() {}

    /// Registers `transformer` under `name`, replacing any other.
    public func register(_ transformer: any ValueTransformer, named name: String) {
        lock.withLock { byName[name] = transformer }
    }

    /// The transformer registered under `name`.
    public func transformer(named name: String) -> (any ValueTransformer)? {
        lock.withLock { byName[name] }
    }
}

extension ManagedObject {
    /// Stores a `Codable` value in the Transformable (or Binary) attribute `key`: through the
    /// attribute's registered transformer if it names one, else as a property-list archive.
    ///
    /// ```swift
    /// try course.setCodable(["algebra", "proofs"], for: "tags")
    /// let tags = try course.codable([String].self, for: "tags")
    /// ```
    public func setCodable<T: Codable & Sendable>(_ value: T?, for key: String) throws {
        guard let value else {
            try set(nil, for: key)
            return
        }
        let attribute = try transformableAttribute(key)
        let data: Data
        if let name = attribute.valueTransformerName,
            let transformer = ValueTransformers.shared.transformer(named: name)
        {
            data = try transformer.encode(value)
        } else {
            data = try Archive.encode(value)
        }
        try set(data, for: key)
    }

    /// Reads a `Codable` value stored by ``setCodable(_:for:)``; `nil` when the attribute is nil.
    /// - Throws: the transformer's error, or the `Archive` module's `ArchiveError`, when the data is not a `T`.
    public func codable<T: Codable & Sendable>(_ type: T.Type, for key: String) throws -> T? {
        let attribute = try transformableAttribute(key)
        guard case .data(let data) = try value(for: key) else { return nil }
        if let name = attribute.valueTransformerName,
            let transformer = ValueTransformers.shared.transformer(named: name)
        {
            guard let decoded = try transformer.decode(data) as? T else {
                throw ObjectGraphError.typeMismatch(
                    entity: schema.name, property: key, expected: "\(T.self)",
                    got: "another type from transformer \(name)")
            }
            return decoded
        }
        return try Archive.decode(type, from: data)
    }

    /// The Transformable or Binary attribute `key`.
    /// - Throws: ``ObjectGraphError/wrongPropertyKind(entity:property:expected:)`` for another
    ///   property.
    @discardableResult
    func transformableAttribute(_ key: String) throws -> Attribute {
        let position = try schema.position(of: key)
        guard case .attribute(let attribute) = schema.properties[position],
            attribute.type == .transformable || attribute.type == .binary
        else {
            throw ObjectGraphError.wrongPropertyKind(
                entity: schema.name, property: key, expected: "a Transformable or Binary attribute")
        }
        return attribute
    }
}
