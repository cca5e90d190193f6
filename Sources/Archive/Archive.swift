import Foundation
import KeyedArchive

/// Saves and loads `Codable` values as property-list archives.
///
/// ```swift
/// struct Person: Codable { var name: String; var age: Int }
/// try Archive.write(Person(name: "Ada", age: 36), to: documents.appendingPathComponent("ada.plist"))
/// let ada = try Archive.read(Person.self, from: documents.appendingPathComponent("ada.plist"))
/// ```
///
/// Files are written atomically (a temporary file beside the archive, flushed and renamed into
/// place), so a reader sees the old archive or the new one, never half of one; the temporary
/// file of a writer that was killed is removed by the next write of that archive. ``encode(_:format:)`` and
/// ``decode(_:from:)`` are the same coder on `Data`, for values kept inside other storage
/// (such as transformable attributes).
///
/// A value that is not a container (a bare number, string, date…) is stored as a dictionary
/// `{ "root": value }`, since a property list cannot have it on top; ``decode(_:from:)``
/// unwraps it.
public enum Archive {
    /// The property-list flavour to write.
    public enum Format: Sendable, Hashable {
        /// `bplist00`: compact and fast (the default).
        case binary
        /// XML: readable and diffable.
        case xml
    }

    /// The key under which a non-container value is wrapped.
    public static let rootKey = "root"

    /// Encodes `value` as a property list.
    ///
    /// The XML format holds dates from 0001-01-01 00:00:00 through 9999-12-31 23:59:59 UTC in
    /// whole seconds (fractions of a second are dropped, as in every XML property list); the binary
    /// format keeps every `Date` exactly.
    ///
    /// - Throws: ``ArchiveError/encodingFailed(type:reason:)``, also when `format` is `.xml`
    ///   and `value` holds a date outside the XML range (naming the date and where it is).
    public static func encode<T: Encodable>(_ value: T, format: Format = .binary)
        throws(ArchiveError)
        -> Data
    {
        let encoder = PropertyListEncoder()
        encoder.outputFormat = format == .binary ? .binary : .xml
        if format == .xml { try checkXMLDates(value) }
        do {
            do {
                return try encoder.encode(value)
            } catch EncodingError.invalidValue(_, let context) where context.codingPath.isEmpty {
                // A bare value on top: wrap it.
                return try encoder.encode([rootKey: value])
            }
        } catch {
            throw .encodingFailed(type: "\(T.self)", reason: CodingErrorText.describe(error))
        }
    }

    /// Throws when `value` holds a date an XML property list cannot hold
    /// (``PropertyListDate/xmlRange``): Foundation would write text that reads back as another
    /// date, or not at all. The binary format keeps every date.
    private static func checkXMLDates<T: Encodable>(_ value: T) throws(ArchiveError) {
        let encoder = PropertyListEncoder()
        encoder.outputFormat = .binary
        guard let data = try? encoder.encode([rootKey: value]),
            let object = try? PropertyListSerialization.propertyList(from: data, format: nil),
            let wrapped = (object as? [String: Any])?[rootKey]
        else { return }
        if let (date, path) = PropertyListDate.firstDate(
            in: wrapped, path: [], where: { !PropertyListDate.fitsXML($0) })
        {
            throw .encodingFailed(
                type: "\(T.self)",
                reason: "the date \(PropertyListDate.describe(date)) at "
                    + (path.isEmpty ? "the top level" : path.joined(separator: "."))
                    + " is outside \(PropertyListDate.xmlRangeText), the dates an XML property"
                    + " list holds (the binary format keeps any date)")
        }
    }

    /// Decodes a `T` from property-list `data`.
    ///
    /// - Throws: ``ArchiveError/corrupt(path:reason:)`` when `data` is not a property list,
    ///   ``ArchiveError/wrongType(path:type:reason:)`` when it holds something else.
    public static func decode<T: Decodable>(_ type: T.Type, from data: Data) throws(ArchiveError)
        -> T
    {
        try decode(type, from: data, path: nil)
    }

    /// Writes `value` to `url` atomically, creating missing parent folders.
    ///
    /// - Throws: ``ArchiveError/encodingFailed(type:reason:)``,
    ///   ``ArchiveError/fileSystem(path:operation:reason:)``.
    public static func write<T: Encodable>(
        _ value: T, to url: URL, format: Format = .binary
    ) throws(ArchiveError) {
        let data = try encode(value, format: format)
        let folder = url.deletingLastPathComponent()
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        } catch {
            throw .fileSystem(
                path: folder.path, operation: "creating the folder",
                reason: error.localizedDescription)
        }
        do {
            try StagedFile.write(data, to: url)
        } catch {
            throw .fileSystem(path: url.path, operation: "writing", reason: error.reason)
        }
    }

    /// Reads a `T` from the archive at `url`.
    ///
    /// - Throws: ``ArchiveError/fileNotFound(path:)``,
    ///   ``ArchiveError/fileSystem(path:operation:reason:)``,
    ///   ``ArchiveError/corrupt(path:reason:)``, ``ArchiveError/wrongType(path:type:reason:)``.
    public static func read<T: Decodable>(_ type: T.Type, from url: URL) throws(ArchiveError)
        -> T
    {
        let path = url.path
        guard FileManager.default.fileExists(atPath: path) else {
            throw .fileNotFound(path: path)
        }
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw .fileSystem(path: path, operation: "reading", reason: reason(error))
        }
        return try decode(type, from: data, path: path)
    }

    private static func decode<T: Decodable>(_ type: T.Type, from data: Data, path: String?)
        throws(ArchiveError) -> T
    {
        if data.isEmpty { throw .corrupt(path: path, reason: "it is empty") }
        if data.starts(with: Array("bplist".utf8)) {
            do {
                try BinaryPropertyList.checkPlainList(data)
            } catch {
                throw .corrupt(path: path, reason: "not a property list (\(error))")
            }
        }
        let object: Any
        var format = PropertyListSerialization.PropertyListFormat.binary
        do {
            object = try PropertyListSerialization.propertyList(from: data, format: &format)
        } catch {
            throw .corrupt(path: path, reason: "not a property list (\(reason(error)))")
        }
        // Old-style text plists accept almost any text (as a bare string); archives are
        // always binary or XML.
        guard format == .binary || format == .xml else {
            throw .corrupt(path: path, reason: "not a binary or XML property list")
        }
        let decoder = PropertyListDecoder()
        do {
            return try decoder.decode(T.self, from: data)
        } catch {
            if let dictionary = object as? [String: Any], dictionary.count == 1,
                dictionary[rootKey] != nil,
                let wrapped = try? decoder.decode([String: T].self, from: data),
                let value = wrapped[rootKey]
            {
                return value
            }
            throw .wrongType(
                path: path, type: "\(T.self)", reason: CodingErrorText.describe(error))
        }
    }

    private static func reason(_ error: any Error) -> String {
        let nsError = error as NSError
        if let debug = nsError.userInfo[NSDebugDescriptionErrorKey] as? String { return debug }
        if let underlying = nsError.userInfo[NSUnderlyingErrorKey] as? NSError {
            return underlying.localizedDescription
        }
        return nsError.localizedDescription
    }
}
