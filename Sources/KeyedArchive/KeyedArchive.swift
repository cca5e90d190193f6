import Foundation

/// An `NSKeyedArchiver` archive, read without trusting it: the binary property list is checked
/// byte by byte (``BinaryPropertyList``), then `$archiver`, `$top` and `$objects`; each `UID`
/// reference is resolved only when a value is asked for, checked to name an object, and a
/// collection that contains itself or nests deeper than ``maximumNesting`` is an error.
/// Foundation's plain classes decode to plain ``ArchivedValue``s, every other object to an
/// ``ArchivedObject`` whose fields decode on demand (so cycles between objects, which real
/// archives have, cost nothing until followed).
///
/// ```swift
/// let archive = try KeyedArchive(data: bytes)
/// guard let expression = try archive.rootValue().object else { return }
/// print(expression.className)                                   // "NSKeyPathExpression"
/// print(try expression.value(forKey: "NSSelectorName")?.string ?? "")  // "valueForKeyPath:"
/// ```
public final class KeyedArchive: Sendable {
    /// The deepest nesting of collections (arrays in dictionaries in arrays…) decoded.
    public static let maximumNesting = 200

    /// The archive's `$objects`.
    private let objects: [PropertyListObject]
    /// The archive's `$top`.
    private let top: [String: PropertyListObject]

    /// How many objects the archive holds.
    public var objectCount: Int { objects.count }

    /// The keys of `$top` (`root` for an archive of one object), sorted.
    public var topKeys: [String] { top.keys.sorted() }

    /// Reads the archive in `data`.
    /// - Throws: ``KeyedArchiveError``: ``KeyedArchiveError/malformedPropertyList(offset:reason:)``
    ///   for a bad property list, ``KeyedArchiveError/notAKeyedArchive(reason:)`` for a
    ///   property list that is not an archive.
    public init(data: Data) throws(KeyedArchiveError) {
        guard case .dictionary(let root) = try BinaryPropertyList.decode(data) else {
            throw .notAKeyedArchive(reason: "the top object is not a dictionary")
        }
        guard let archiver = root["$archiver"]?.string else {
            throw .notAKeyedArchive(reason: "there is no $archiver string")
        }
        guard archiver == "NSKeyedArchiver" else {
            throw .notAKeyedArchive(reason: "$archiver is \"\(archiver)\", not NSKeyedArchiver")
        }
        guard case .array(let objects)? = root["$objects"] else {
            throw .notAKeyedArchive(reason: "there is no $objects array")
        }
        guard case .dictionary(let top)? = root["$top"] else {
            throw .notAKeyedArchive(reason: "there is no $top dictionary")
        }
        self.objects = objects
        self.top = top
    }

    /// The value archived under `key` of `$top` (`nil` when there is none).
    public func topValue(forKey key: String) throws(KeyedArchiveError) -> ArchivedValue? {
        guard let field = top[key] else { return nil }
        return try decode(field, in: nil)
    }

    /// The archive's root object (`$top`'s `root`, as `archivedData(withRootObject:)` writes).
    /// - Throws: ``KeyedArchiveError/notAKeyedArchive(reason:)`` when `$top` has no `root`.
    public func rootValue() throws(KeyedArchiveError) -> ArchivedValue {
        guard let value = try topValue(forKey: "root") else {
            throw .notAKeyedArchive(reason: "$top has no root")
        }
        return value
    }

    /// Decodes a field of the object at `owner` (`nil`: of `$top`).
    func decode(_ field: PropertyListObject, in owner: Int?) throws(KeyedArchiveError)
        -> ArchivedValue
    {
        var resolver = Resolver(archive: self)
        return try resolver.field(field, owner: owner ?? -1, depth: 0)
    }

    /// One decoding: the collections decoded so far (each once) and the ones being decoded.
    private struct Resolver {
        let archive: KeyedArchive
        var decoded: [Int: ArchivedValue] = [:]
        var inProgress: Set<Int> = []

        private var objects: [PropertyListObject] { archive.objects }

        mutating func field(_ field: PropertyListObject, owner: Int, depth: Int)
            throws(KeyedArchiveError) -> ArchivedValue
        {
            switch field {
            case .uid(let reference):
                guard reference < UInt64(objects.count) else {
                    throw .malformedObject(
                        index: max(owner, 0),
                        reason:
                            "refers to object \(reference), but the archive has \(objects.count)")
                }
                return try value(at: Int(reference), depth: depth)
            case .null: return .null
            case .bool(let flag): return .bool(flag)
            case .integer(let number): return .integer(number)
            case .real(let number): return .real(number)
            case .string(let text): return .string(text)
            case .data(let bytes): return .data(bytes)
            case .date(let date): return .date(date)
            case .array(let elements), .set(let elements):
                guard depth < KeyedArchive.maximumNesting else { throw tooDeep(owner) }
                var values: [ArchivedValue] = []
                for element in elements {
                    values.append(try self.field(element, owner: owner, depth: depth + 1))
                }
                if case .set = field { return .set(values) }
                return .array(values)
            case .dictionary:
                throw .malformedObject(
                    index: max(owner, 0), reason: "a field holds a dictionary without a class")
            }
        }

        private func tooDeep(_ index: Int) -> KeyedArchiveError {
            .malformedObject(
                index: max(index, 0),
                reason: "collections nest more than \(KeyedArchive.maximumNesting) levels deep")
        }

        private mutating func value(at index: Int, depth: Int) throws(KeyedArchiveError)
            -> ArchivedValue
        {
            if let known = decoded[index] { return known }
            if index == 0, objects[0].string == "$null" { return .null }
            guard !inProgress.contains(index) else {
                throw .malformedObject(index: index, reason: "contains itself (a reference cycle)")
            }
            guard depth < KeyedArchive.maximumNesting else { throw tooDeep(index) }
            inProgress.insert(index)
            defer { inProgress.remove(index) }
            let result: ArchivedValue
            switch objects[index] {
            case .dictionary(let fields):
                result = try object(fields, at: index, depth: depth)
            case .uid:
                throw .malformedObject(index: index, reason: "is a bare reference, not a value")
            case let plain:
                result = try field(plain, owner: index, depth: depth)
            }
            decoded[index] = result
            return result
        }

        /// An object: Foundation's plain classes as values, anything else as an
        /// ``ArchivedObject``.
        private mutating func object(
            _ fields: [String: PropertyListObject], at index: Int, depth: Int
        ) throws(KeyedArchiveError) -> ArchivedValue {
            let (className, classes) = try classOf(fields, at: index)
            switch className {
            case "NSArray", "NSMutableArray", "NSOrderedSet", "NSMutableOrderedSet":
                return .array(try members(fields, "NS.objects", at: index, depth: depth))
            case "NSSet", "NSMutableSet", "NSCountedSet":
                return .set(try members(fields, "NS.objects", at: index, depth: depth))
            case "NSDictionary", "NSMutableDictionary":
                let keys = try members(fields, "NS.keys", at: index, depth: depth)
                let values = try members(fields, "NS.objects", at: index, depth: depth)
                guard keys.count == values.count else {
                    throw .malformedObject(
                        index: index,
                        reason: "a dictionary with \(keys.count) keys and \(values.count) values")
                }
                var entries: [ArchivedValue: ArchivedValue] = [:]
                for (key, value) in zip(keys, values) {
                    guard entries.updateValue(value, forKey: key) == nil else {
                        throw .malformedObject(
                            index: index, reason: "a dictionary key appears twice")
                    }
                }
                return .dictionary(entries)
            case "NSString", "NSMutableString":
                if case .string(let text)? = fields["NS.string"] { return .string(text) }
                if case .data(let bytes)? = fields["NS.bytes"] {
                    return .string(String(decoding: bytes, as: UTF8.self))
                }
                throw .malformedObject(index: index, reason: "an \(className) without NS.string")
            case "NSData", "NSMutableData":
                if case .data(let bytes)? = fields["NS.data"] { return .data(bytes) }
                throw .malformedObject(index: index, reason: "an \(className) without NS.data")
            case "NSDate":
                switch fields["NS.time"] {
                case .real(let seconds)? where seconds.isFinite:
                    return .date(Date(timeIntervalSinceReferenceDate: seconds))
                case .integer(let seconds)?:
                    return .date(Date(timeIntervalSinceReferenceDate: Double(seconds)))
                default:
                    throw .malformedObject(index: index, reason: "an NSDate without NS.time")
                }
            case "NSNull":
                return .null
            default:
                return .object(
                    ArchivedObject(
                        index: index, className: className, classes: classes, fields: fields,
                        archive: archive))
            }
        }

        /// The elements a collection object lists under `key` (none when absent).
        private mutating func members(
            _ fields: [String: PropertyListObject], _ key: String, at index: Int, depth: Int
        ) throws(KeyedArchiveError) -> [ArchivedValue] {
            guard let list = fields[key] else { return [] }
            guard case .array(let references) = list else {
                throw .malformedObject(index: index, reason: "\(key) is not an array")
            }
            var values: [ArchivedValue] = []
            values.reserveCapacity(references.count)
            for reference in references {
                values.append(try field(reference, owner: index, depth: depth + 1))
            }
            return values
        }

        /// The `$classname` and `$classes` of the class record an object's `$class` names.
        private func classOf(_ fields: [String: PropertyListObject], at index: Int)
            throws(KeyedArchiveError) -> (String, [String])
        {
            guard case .uid(let reference)? = fields["$class"] else {
                throw .malformedObject(index: index, reason: "an object without a $class reference")
            }
            guard reference < UInt64(objects.count),
                case .dictionary(let record) = objects[Int(reference)],
                let name = record["$classname"]?.string
            else {
                throw .malformedObject(
                    index: index,
                    reason: "$class \(reference) is not a class record with a $classname")
            }
            var classes: [String] = []
            if case .array(let names)? = record["$classes"] {
                for case .string(let superclass) in names { classes.append(superclass) }
            }
            return (name, classes.isEmpty ? [name] : classes)
        }
    }
}
