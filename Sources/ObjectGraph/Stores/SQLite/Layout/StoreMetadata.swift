import Foundation

/// A store's metadata as Core Data keeps it: the store UUID (`Z_METADATA.Z_UUID`) and the binary
/// property list in `Z_METADATA.Z_PLIST` (store type, framework version, the model's entity
/// version hashes and identifiers, digest, auto-vacuum level, and any keys an app adds).
/// `research/coredata-store-format.md` §4.2.
///
/// ```swift
/// var metadata = StoreMetadata(model: model)
/// metadata.additionalEntries["BuildNumber"] = 7
/// let plist = try metadata.propertyListData()          // for Z_METADATA.Z_PLIST
/// let read = try StoreMetadata(storeUUID: metadata.storeUUID, propertyList: plist)
/// let check = read.compatibility(with: model)          // .isCompatible == true
/// ```
public struct StoreMetadata: Sendable, Hashable {
    /// The framework version written into new stores: Core Data's build number of iOS 12 /
    /// macOS 10.14-era writers, a version every current Core Data opens.
    public static let defaultFrameworkVersion = 1145

    /// The store's UUID (`Z_METADATA.Z_UUID`, upper-case 8-4-4-4-12 in Apple's files). It is not
    /// part of the property list.
    public var storeUUID: String
    /// `NSStoreType`: `"SQLite"` for SQLite stores.
    public var storeType: String?
    /// `NSPersistenceFrameworkVersion`: the writer's Core Data build number.
    public var frameworkVersion: Int?
    /// `NSStoreModelVersionHashes`: each entity's 32-byte version hash, by entity name.
    public var versionHashes: [String: Data]
    /// `NSStoreModelVersionHashesVersion`: 3 in every known store.
    public var versionHashesVersion: Int?
    /// `NSStoreModelVersionIdentifiers`: the model's version identifiers (often `[""]`).
    public var versionIdentifiers: [String]
    /// `NSStoreModelVersionHashesDigest`: base64 SHA-512 over the names and hashes.
    public var versionHashesDigest: String?
    /// `NSStoreModelVersionChecksumKey`: base64 SHA-256 over the hashes (newest stores).
    public var versionChecksum: String?
    /// `_NSAutoVacuumLevel`: `"2"` (incremental) in modern stores.
    public var autoVacuumLevel: String?
    /// Every other key: app-defined entries and Core Data keys this type does not model.
    public var additionalEntries: [String: PropertyListValue]

    static let storeTypeKey = "NSStoreType"
    static let frameworkVersionKey = "NSPersistenceFrameworkVersion"
    static let hashesKey = "NSStoreModelVersionHashes"
    static let hashesVersionKey = "NSStoreModelVersionHashesVersion"
    static let identifiersKey = "NSStoreModelVersionIdentifiers"
    static let digestKey = "NSStoreModelVersionHashesDigest"
    static let checksumKey = "NSStoreModelVersionChecksumKey"
    static let autoVacuumKey = "_NSAutoVacuumLevel"

    /// Creates metadata from its parts.
    public init(
        storeUUID: String, storeType: String? = "SQLite", frameworkVersion: Int? = nil,
        versionHashes: [String: Data] = [:], versionHashesVersion: Int? = 3,
        versionIdentifiers: [String] = [], versionHashesDigest: String? = nil,
        versionChecksum: String? = nil, autoVacuumLevel: String? = nil,
        additionalEntries: [String: PropertyListValue] = [:]
    ) {
        self.storeUUID = storeUUID
        self.storeType = storeType
        self.frameworkVersion = frameworkVersion
        self.versionHashes = versionHashes
        self.versionHashesVersion = versionHashesVersion
        self.versionIdentifiers = versionIdentifiers
        self.versionHashesDigest = versionHashesDigest
        self.versionChecksum = versionChecksum
        self.autoVacuumLevel = autoVacuumLevel
        self.additionalEntries = additionalEntries
    }

    /// The first framework version that writes `NSStoreModelVersionHashesDigest` (absent in
    /// stores of fw 851 and older, present from fw 977 on).
    public static let digestFrameworkVersion = 977
    /// The first framework version that writes `NSStoreModelVersionChecksumKey`: absent at
    /// fw 1145, present at fw 1448; the line between is our choice.
    public static let checksumFrameworkVersion = 1200

    /// The metadata of a new SQLite store for `model`, with the keys Core Data of
    /// `frameworkVersion` writes: type `SQLite`, the framework version, the model's version
    /// hashes and identifiers, hashes version 3, auto-vacuum level `"2"`, the digest (fw 977
    /// and later) and the checksum (fw 1200 and later).
    ///
    /// ```swift
    /// StoreMetadata(model: model, frameworkVersion: 1145).versionChecksum  // nil
    /// ```
    public init(
        model: EntityModel, storeUUID: String = UUID().uuidString,
        frameworkVersion: Int = StoreMetadata.defaultFrameworkVersion
    ) {
        self.init(
            storeUUID: storeUUID, storeType: "SQLite", frameworkVersion: frameworkVersion,
            versionHashes: model.entityVersionHashes, versionHashesVersion: 3,
            versionIdentifiers: model.versionIdentifier.map { [$0] } ?? [],
            versionHashesDigest: frameworkVersion >= Self.digestFrameworkVersion
                ? model.versionHashesDigest : nil,
            versionChecksum: frameworkVersion >= Self.checksumFrameworkVersion
                ? model.versionChecksum : nil,
            autoVacuumLevel: "2")
    }

    /// Compares the store's entity version hashes with `model`'s.
    public func compatibility(with model: EntityModel) -> ModelCompatibility {
        ModelCompatibility(storeHashes: versionHashes, modelHashes: model.entityVersionHashes)
    }
}
