/// Why a store's metadata could not be read or written.
///
/// ```swift
/// do { _ = try StoreMetadata(storeUUID: uuid, propertyList: bytes) }
/// catch let error as StoreMetadataError { print(error) }
/// // store metadata: NSStoreModelVersionHashes: expected a dictionary of data, found …
/// ```
public struct StoreMetadataError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What kind of problem it is.
    public enum Kind: String, Sendable, Hashable {
        /// The bytes are not a property list.
        case notAPropertyList
        /// The property list's root is not a dictionary with string keys.
        case notADictionary
        /// A known key holds a value of the wrong type.
        case wrongType
        /// A value cannot be written as a property list.
        case unencodable
    }

    /// What kind of problem it is.
    public let kind: Kind
    /// The metadata key concerned, if any.
    public let key: String?
    /// What is wrong, in one sentence.
    public let message: String

    /// Creates an error.
    public init(_ kind: Kind, key: String? = nil, _ message: String) {
        self.kind = kind
        self.key = key
        self.message = message
    }

    /// `store metadata: key: message`.
    public var description: String {
        "store metadata: " + (key.map { "\($0): " } ?? "") + message
    }
}
