import Foundation
import KeyedArchive

/// Reading and writing the binary property list of `Z_METADATA.Z_PLIST`.
extension StoreMetadata {
    /// Reads metadata from a store's `Z_UUID` and `Z_PLIST` bytes (binary or XML property
    /// list). Keys that are absent stay `nil` or empty.
    ///
    /// - Throws: ``StoreMetadataError`` when the bytes are not a property list, its root is not
    ///   a dictionary, or a known key holds the wrong type. Never traps on garbage.
    public init(storeUUID: String, propertyList data: Data) throws(StoreMetadataError) {
        var entries = try Self.entries(of: data)
        self.init(storeUUID: storeUUID, storeType: nil, versionHashesVersion: nil)
        storeType = try Self.take(Self.storeTypeKey, from: &entries, as: Self.string)
        frameworkVersion = try Self.take(Self.frameworkVersionKey, from: &entries, as: Self.int)
        versionHashesVersion = try Self.take(Self.hashesVersionKey, from: &entries, as: Self.int)
        versionHashes = try Self.take(Self.hashesKey, from: &entries, as: Self.hashes) ?? [:]
        versionIdentifiers =
            try Self.take(Self.identifiersKey, from: &entries, as: Self.strings) ?? []
        versionHashesDigest = try Self.take(Self.digestKey, from: &entries, as: Self.string)
        versionChecksum = try Self.take(Self.checksumKey, from: &entries, as: Self.string)
        autoVacuumLevel = try Self.take(Self.autoVacuumKey, from: &entries, as: Self.string)
        additionalEntries = entries
    }

    /// The binary property list Core Data stores in `Z_METADATA.Z_PLIST`. The store UUID is not
    /// part of it (it lives in `Z_UUID`); `nil` fields are left out; additional entries are
    /// written as they are, except that they never replace a modelled key.
    public func propertyListData() throws(StoreMetadataError) -> Data {
        var dictionary: [String: Any] = additionalEntries.mapValues(\.foundationValue)
        dictionary[Self.storeTypeKey] = storeType
        dictionary[Self.frameworkVersionKey] = frameworkVersion.map { NSNumber(value: $0) }
        dictionary[Self.hashesKey] = versionHashes
        dictionary[Self.hashesVersionKey] = versionHashesVersion.map { NSNumber(value: $0) }
        dictionary[Self.identifiersKey] = versionIdentifiers
        dictionary[Self.digestKey] = versionHashesDigest
        dictionary[Self.checksumKey] = versionChecksum
        dictionary[Self.autoVacuumKey] = autoVacuumLevel
        do {
            return try PropertyListSerialization.data(
                fromPropertyList: dictionary, format: .binary, options: 0)
        } catch {
            throw StoreMetadataError(
                .unencodable, "cannot be written as a binary property list: \(error)")
        }
    }

    // MARK: - Typed reading

    private static func take<T>(
        _ key: String, from entries: inout [String: PropertyListValue],
        as convert: (PropertyListValue) -> T?
    ) throws(StoreMetadataError) -> T? {
        guard let value = entries.removeValue(forKey: key) else { return nil }
        guard let converted = convert(value) else {
            throw StoreMetadataError(
                .wrongType, key: key, "expected \(T.self), found \(kind(of: value))")
        }
        return converted
    }

    private static func string(_ value: PropertyListValue) -> String? {
        if case .string(let text) = value { return text }
        return nil
    }

    private static func int(_ value: PropertyListValue) -> Int? {
        switch value {
        case .integer(let number): return Int(exactly: number)
        case .real(let number): return Int(exactly: number)
        case .string(let text): return Int(text)
        default: return nil
        }
    }

    private static func strings(_ value: PropertyListValue) -> [String]? {
        guard case .array(let items) = value else { return nil }
        var result: [String] = []
        for item in items {
            guard case .string(let text) = item else { return nil }
            result.append(text)
        }
        return result
    }

    private static func hashes(_ value: PropertyListValue) -> [String: Data]? {
        guard case .dictionary(let entries) = value else { return nil }
        var result: [String: Data] = [:]
        for (name, item) in entries {
            guard case .data(let bytes) = item else { return nil }
            result[name] = bytes
        }
        return result
    }

    private static func kind(of value: PropertyListValue) -> String {
        switch value {
        case .string: return "a string"
        case .integer: return "an integer"
        case .real: return "a real number"
        case .bool: return "a Boolean"
        case .date: return "a date"
        case .data: return "data"
        case .array: return "an array"
        case .dictionary: return "a dictionary"
        }
    }
}

extension StoreMetadata {
    /// The root dictionary of a metadata property list. A binary one is read by the checked
    /// decoder of ``BinaryPropertyList`` (Foundation's reader traps on some damaged binary
    /// lists, e.g. a set inside a dictionary); an XML one by `PropertyListSerialization`.
    fileprivate static func entries(of data: Data) throws(StoreMetadataError)
        -> [String: PropertyListValue]
    {
        if data.starts(with: Array("bplist".utf8)) {
            let root: PropertyListObject
            do {
                try BinaryPropertyList.checkPlainList(data)
                root = try BinaryPropertyList.decode(data)
            } catch {
                throw StoreMetadataError(
                    .notAPropertyList, "the \(data.count) bytes are not a property list: \(error)")
            }
            guard case .dictionary(let dictionary) = root else {
                throw StoreMetadataError(
                    .notADictionary, "the property list's root is not a dictionary")
            }
            var entries: [String: PropertyListValue] = [:]
            for (key, value) in dictionary {
                guard let converted = PropertyListValue(propertyListObject: value) else {
                    throw StoreMetadataError(
                        .wrongType, key: key, "holds a value that is not a property list value")
                }
                entries[key] = converted
            }
            return entries
        }
        let root: Any
        do {
            root = try PropertyListSerialization.propertyList(from: data, format: nil)
        } catch {
            throw StoreMetadataError(
                .notAPropertyList, "the \(data.count) bytes are not a property list")
        }
        guard let dictionary = root as? [String: Any] else {
            throw StoreMetadataError(
                .notADictionary, "the property list's root is not a dictionary")
        }
        var entries: [String: PropertyListValue] = [:]
        for (key, value) in dictionary {
            guard let converted = PropertyListValue(foundationValue: value) else {
                throw StoreMetadataError(
                    .wrongType, key: key, "holds a value that is not a property list value")
            }
            entries[key] = converted
        }
        return entries
    }
}

extension PropertyListValue {
    /// The value of a checked binary property list object; `nil` for what metadata never holds
    /// (null, sets, keyed-archive references).
    fileprivate init?(propertyListObject object: PropertyListObject) {
        switch object {
        case .string(let text): self = .string(text)
        case .integer(let number): self = .integer(number)
        case .real(let number): self = .real(number)
        case .bool(let flag): self = .bool(flag)
        case .date(let date): self = .date(date)
        case .data(let bytes): self = .data(bytes)
        case .array(let items):
            var values: [PropertyListValue] = []
            for item in items {
                guard let value = PropertyListValue(propertyListObject: item) else { return nil }
                values.append(value)
            }
            self = .array(values)
        case .dictionary(let fields):
            var values: [String: PropertyListValue] = [:]
            for (key, item) in fields {
                guard let value = PropertyListValue(propertyListObject: item) else { return nil }
                values[key] = value
            }
            self = .dictionary(values)
        case .null, .set, .uid: return nil
        }
    }
}
