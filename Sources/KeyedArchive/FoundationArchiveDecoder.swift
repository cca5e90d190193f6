import Foundation

/// Reads a ``FoundationValue`` from an ``ArchiveTemplate``: each `$objects` entry decoded once,
/// a reference cycle through known classes or nesting deeper than
/// ``KeyedArchive/maximumNesting`` an error; objects of other classes (and attributed strings)
/// kept as standalone archives.
struct FoundationArchiveDecoder {
    let template: ArchiveTemplate
    let source: Data
    private var decoded: [Int: FoundationValue] = [:]
    private var inProgress: Set<Int> = []

    init(template: ArchiveTemplate, source: Data) {
        self.template = template
        self.source = source
    }

    /// The root value.
    mutating func rootValue() throws(KeyedArchiveError) -> FoundationValue {
        try value(template.root, depth: 0)
    }

    /// The value of `$objects` entry `uid`.
    mutating func value(_ uid: Int, depth: Int) throws(KeyedArchiveError) -> FoundationValue {
        if let known = decoded[uid] { return known }
        guard let entry = template.entry(uid) else {
            throw .malformedObject(index: uid, reason: "no such object")
        }
        guard !inProgress.contains(uid) else {
            throw .malformedObject(index: uid, reason: "contains itself (a reference cycle)")
        }
        guard depth < KeyedArchive.maximumNesting else {
            throw .malformedObject(
                index: uid,
                reason: "objects nest more than \(KeyedArchive.maximumNesting) levels deep")
        }
        inProgress.insert(uid)
        defer { inProgress.remove(uid) }
        let result: FoundationValue
        switch entry {
        case .string(let text): result = uid == 0 && text == "$null" ? .null : .string(text)
        case .data(let bytes): result = .data(bytes)
        case .dictionary: result = try object(uid, depth: depth)
        default:
            guard let number = Self.number(entry) else {
                throw .malformedObject(index: uid, reason: "is of kind \(entry.kind), not a value")
            }
            result = .number(number)
        }
        decoded[uid] = result
        return result
    }

    static func number(_ entry: PropertyListTable.Entry) -> ArchivedNumber? {
        switch entry {
        case .bool(let flag): return .bool(flag)
        case .integer(let number): return .integer(number)
        case .unsignedInteger(let number): return .unsignedInteger(number)
        case .float(let number): return .float(number)
        case .double(let number): return .double(number)
        default: return nil
        }
    }

    private mutating func object(_ uid: Int, depth: Int) throws(KeyedArchiveError)
        -> FoundationValue
    {
        guard let className = template.className(uid) else {
            throw .malformedObject(
                index: uid, reason: "$class is not a reference to a class record")
        }
        switch className {
        case "NSArray", "NSMutableArray":
            return .array(try members(uid, "NS.objects", depth: depth))
        case "NSSet", "NSMutableSet":
            return .set(try members(uid, "NS.objects", depth: depth))
        case "NSOrderedSet", "NSMutableOrderedSet":
            return .orderedSet(try orderedMembers(uid, depth: depth))
        case "NSDictionary", "NSMutableDictionary":
            let keys = try members(uid, "NS.keys", depth: depth)
            let values = try members(uid, "NS.objects", depth: depth)
            guard keys.count == values.count else {
                throw .malformedObject(
                    index: uid,
                    reason: "a dictionary with \(keys.count) keys and \(values.count) values")
            }
            return .dictionary(zip(keys, values).map { .init(key: $0, value: $1) })
        case "NSString", "NSMutableString":
            guard case .string(let text) = try field(uid, "NS.string", depth: depth) else {
                throw .malformedObject(index: uid, reason: "an \(className) without NS.string")
            }
            return .string(text)
        case "NSData", "NSMutableData":
            guard case .data(let bytes) = try field(uid, "NS.data", depth: depth) else {
                throw .malformedObject(index: uid, reason: "an \(className) without NS.data")
            }
            return .data(bytes)
        case "NSDate":
            guard let time = inline(uid, "NS.time"), let seconds = Self.seconds(time) else {
                throw .malformedObject(index: uid, reason: "an NSDate without a finite NS.time")
            }
            return .date(Date(timeIntervalSinceReferenceDate: seconds))
        case "NSUUID":
            guard case .data(let bytes)? = inline(uid, "NS.uuidbytes"), bytes.count == 16 else {
                throw .malformedObject(index: uid, reason: "an NSUUID without 16 NS.uuidbytes")
            }
            return .uuid(UUID(uuid: bytes.withUnsafeBytes { $0.loadUnaligned(as: uuid_t.self) }))
        case "NSURL":
            return try url(uid, depth: depth)
        case "NSNull":
            return .null
        case "NSAttributedString", "NSMutableAttributedString":
            guard case .string(let text) = try field(uid, "NSString", depth: depth) else {
                throw .malformedObject(index: uid, reason: "an \(className) without NSString")
            }
            return .attributedString(
                ArchivedObjectBytes(className: className, text: text, archive: try standalone(uid)))
        default:
            return .unknown(ArchivedObjectBytes(className: className, archive: try standalone(uid)))
        }
    }

    private mutating func url(_ uid: Int, depth: Int) throws(KeyedArchiveError)
        -> FoundationValue
    {
        guard case .string(let relative) = try field(uid, "NS.relative", depth: depth) else {
            throw .malformedObject(index: uid, reason: "an NSURL without an NS.relative string")
        }
        let base = try field(uid, "NS.base", depth: depth) ?? .null
        switch base {
        case .null, .url: return .url(relative: relative, base: base)
        default: throw .malformedObject(index: uid, reason: "an NSURL whose NS.base is not a URL")
        }
    }

    /// The archive of the object at `uid` alone (the source itself for the root).
    private func standalone(_ uid: Int) throws(KeyedArchiveError) -> Data {
        if uid == template.root { return source }
        var encoder = FoundationArchiveEncoder(template: template)
        return try encoder.archive(copying: uid)
    }

    private func inline(_ uid: Int, _ key: String) -> PropertyListTable.Entry? {
        guard let field = template.fields(uid)?.first(where: { $0.key == key }) else { return nil }
        return template.table.objects[field.value]
    }

    static func seconds(_ entry: PropertyListTable.Entry) -> Double? {
        switch entry {
        case .double(let seconds) where seconds.isFinite: return seconds
        case .float(let seconds) where seconds.isFinite: return Double(seconds)
        case .integer(let seconds): return Double(seconds)
        default: return nil
        }
    }

    /// The field `key` of object `uid`: a referenced value, or an inline string, data or number.
    private mutating func field(_ uid: Int, _ key: String, depth: Int) throws(KeyedArchiveError)
        -> FoundationValue?
    {
        guard let entry = inline(uid, key) else { return nil }
        switch entry {
        case .uid(let target):
            guard target < UInt64(template.objects.count) else {
                throw .malformedObject(index: uid, reason: "\(key) refers to no object (\(target))")
            }
            return try value(Int(target), depth: depth + 1)
        case .string(let text): return .string(text)
        case .data(let bytes): return .data(bytes)
        default:
            guard let number = Self.number(entry) else {
                throw .malformedObject(index: uid, reason: "\(key) is of kind \(entry.kind)")
            }
            return .number(number)
        }
    }

    /// The values an array field `key` of object `uid` refers to (none when absent).
    private mutating func members(_ uid: Int, _ key: String, depth: Int)
        throws(KeyedArchiveError) -> [FoundationValue]
    {
        guard let entry = inline(uid, key) else { return [] }
        guard case .array(let elements) = entry else {
            throw .malformedObject(index: uid, reason: "\(key) is not an array")
        }
        var result: [FoundationValue] = []
        result.reserveCapacity(elements.count)
        for element in elements {
            guard case .uid(let target) = template.table.objects[element],
                target < UInt64(template.objects.count)
            else {
                throw .malformedObject(index: uid, reason: "\(key) holds something not a reference")
            }
            result.append(try value(Int(target), depth: depth + 1))
        }
        return result
    }

    /// An ordered set's members: `NS.objects`, or `NS.object.0`, `NS.object.1`…
    private mutating func orderedMembers(_ uid: Int, depth: Int) throws(KeyedArchiveError)
        -> [FoundationValue]
    {
        if inline(uid, "NS.objects") != nil { return try members(uid, "NS.objects", depth: depth) }
        var result: [FoundationValue] = []
        let count = template.fields(uid)?.count ?? 0
        for position in 0..<count {
            guard let member = try field(uid, "NS.object.\(position)", depth: depth) else { break }
            result.append(member)
        }
        return result
    }
}

extension PropertyListTable.Entry {
    /// The kind, for messages.
    var kind: String {
        switch self {
        case .null: return "null"
        case .bool: return "Boolean"
        case .integer, .unsignedInteger: return "integer"
        case .float, .double: return "real"
        case .date: return "date"
        case .data: return "data"
        case .string: return "string"
        case .uid: return "reference"
        case .array: return "array"
        case .set: return "set"
        case .dictionary: return "dictionary"
        }
    }
}
