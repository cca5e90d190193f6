import Foundation

/// Writes ``FoundationValue``s as `NSKeyedArchiver` does: an object's entry in `$objects` is
/// taken before the objects it refers to are encoded (a dictionary's keys, then its values), its
/// class record after them, `$class` last among its fields; then the archive is handed to
/// CFBinaryPList's flattening (``PropertyListFlattener``).
///
/// With a template (the archive the value was read from), a value written where the template
/// had an object of the same kind takes that object's class name (`NSMutableArray`…), key
/// order and shared objects, so an unchanged value gives the template's bytes.
struct FoundationArchiveEncoder {
    private var objects: [PropertyListNode] = []
    private var classRecords: [String: Int] = [:]
    private var freshCount = 0
    private let template: ArchiveTemplate?
    private var foreign: [Data: ArchiveTemplate] = [:]
    private var fromTemplate: [Int: (uid: Int, value: FoundationValue)] = [:]
    private var copied: [Int: [Int: Int]] = [:]
    private var numbers: [ArchivedNumber: Int] = [:]

    /// The superclasses `NSKeyedArchiver` records for the classes written without a template.
    static let superclasses: [String: [String]] = [
        "NSMutableArray": ["NSArray"], "NSMutableDictionary": ["NSDictionary"],
        "NSMutableSet": ["NSSet"], "NSMutableOrderedSet": ["NSOrderedSet"],
        "NSMutableString": ["NSString"], "NSMutableData": ["NSData"],
        "NSMutableAttributedString": ["NSAttributedString"],
    ]

    init(template: ArchiveTemplate?) {
        self.template = template
        let null = template.map { PropertyListIdentity.template($0.id, $0.objects[0]) }
        objects = [.scalar(.string("$null"), identity: null ?? .constant("$null"))]
    }

    /// The archive of `value`.
    mutating func archive(_ value: FoundationValue) throws(KeyedArchiveError) -> Data {
        let root = try encode(value, at: template?.root, depth: 0)
        return finish(root: root)
    }

    /// The archive of the template's object `uid` alone, copied as it is.
    mutating func archive(copying uid: Int) throws(KeyedArchiveError) -> Data {
        guard let template else { return finish(root: 0) }
        let root = try copy(uid, from: template, depth: 0)
        return finish(root: root)
    }

    // MARK: The archive

    private mutating func finish(root: Int) -> Data {
        let order = template?.top.map(\.key) ?? []
        let defaults = ["$version", "$archiver", "$top", "$objects"]
        let keys = order.count == 4 && Set(order) == Set(defaults) ? order : defaults
        var entries: [(key: PropertyListNode, value: PropertyListNode)] = []
        for key in keys {
            let value: PropertyListNode
            switch key {
            case "$version": value = topScalar(key, .integer(100_000))
            case "$archiver": value = topScalar(key, .string("NSKeyedArchiver"))
            case "$top":
                let rootKey = template?.topFields.first { $0.key == "root" }
                let identity = rootKey.map {
                    PropertyListIdentity.template(template?.id ?? 0, $0.keyIndex)
                }
                value = .dictionary([
                    (
                        .scalar(.string("root"), identity: identity ?? .constant("root")),
                        .repeated(.uid(UInt64(root)))
                    )
                ])
            default: value = .array(objects)
            }
            entries.append((topKey(key), value))
        }
        let table = PropertyListFlattener.table(.dictionary(entries))
        return PropertyListTableWriter(table).data()
    }

    private func topKey(_ key: String) -> PropertyListNode {
        if let template, let field = template.top.first(where: { $0.key == key }) {
            return .scalar(.string(key), identity: .template(template.id, field.keyIndex))
        }
        return .scalar(.string(key), identity: .constant(key))
    }

    private mutating func topScalar(_ key: String, _ entry: PropertyListTable.Entry)
        -> PropertyListNode
    {
        if let template, let field = template.top.first(where: { $0.key == key }),
            template.table.objects[field.value] == entry
        {
            return .scalar(entry, identity: .template(template.id, field.value))
        }
        return .scalar(entry, identity: freshIdentity())
    }

    private mutating func freshIdentity() -> PropertyListIdentity {
        freshCount += 1
        return .fresh(freshCount)
    }

    private mutating func reserve() -> Int {
        objects.append(.repeated(.null))
        return objects.count - 1
    }

    // MARK: Values

    private mutating func encode(_ value: FoundationValue, at position: Int?, depth: Int)
        throws(KeyedArchiveError) -> Int
    {
        guard depth < KeyedArchive.maximumNesting else {
            throw .malformedObject(
                index: objects.count,
                reason: "values nest more than \(KeyedArchive.maximumNesting) levels deep")
        }
        if let position, let prior = fromTemplate[position], prior.value == value {
            return prior.uid
        }
        let uid = try encodeNew(value, at: position, depth: depth)
        if let position, fromTemplate[position] == nil { fromTemplate[position] = (uid, value) }
        return uid
    }

    private mutating func encodeNew(_ value: FoundationValue, at position: Int?, depth: Int)
        throws(KeyedArchiveError) -> Int
    {
        let shape = position.flatMap { template?.className($0) }
        func like(_ names: String...) -> String? { shape.flatMap { names.contains($0) ? $0 : nil } }
        switch value {
        case .string(let text):
            if let name = like("NSString", "NSMutableString") {
                return try object(name, at: position, depth: depth) { _ in
                    [("NS.string", .inline(.string(text)))]
                }
            }
            return scalar(.string(text), at: position)
        case .data(let bytes):
            if let name = like("NSData", "NSMutableData") {
                return try object(name, at: position, depth: depth) { _ in
                    [("NS.data", .inline(.data(bytes)))]
                }
            }
            return scalar(.data(bytes), at: position)
        case .number(let number):
            return self.number(number, at: position)
        case .null:
            return try object("NSNull", at: position, depth: depth) { _ in [] }
        case .date(let date):
            return try object("NSDate", at: position, depth: depth) { _ in
                [("NS.time", .inline(.double(date.timeIntervalSinceReferenceDate)))]
            }
        case .uuid(let uuid):
            let bytes = withUnsafeBytes(of: uuid.uuid) { Data($0) }
            return try object("NSUUID", at: position, depth: depth) { _ in
                [("NS.uuidbytes", .inline(.data(bytes)))]
            }
        case .url(let relative, let base):
            let known = like("NSURL")
            return try object("NSURL", at: position, depth: depth) {
                encoder throws(KeyedArchiveError) in
                let baseUID: Int
                if case .null = base {
                    baseUID = 0
                } else {
                    baseUID = try encoder.encode(
                        base,
                        at: known.flatMap { _ in encoder.template?.reference(position, "NS.base") },
                        depth: depth + 1)
                }
                let relativeUID = try encoder.encode(
                    .string(relative),
                    at: known.flatMap { _ in encoder.template?.reference(position, "NS.relative") },
                    depth: depth + 1)
                return [("NS.base", .reference(baseUID)), ("NS.relative", .reference(relativeUID))]
            }
        case .array(let elements):
            let name = like("NSArray", "NSMutableArray") ?? "NSArray"
            return try collection(name, elements, at: position, known: name == shape, depth: depth)
        case .set(let elements):
            let name = like("NSSet", "NSMutableSet") ?? "NSSet"
            return try collection(name, elements, at: position, known: name == shape, depth: depth)
        case .orderedSet(let elements):
            let name = like("NSOrderedSet", "NSMutableOrderedSet") ?? "NSOrderedSet"
            let known = name == shape
            if known, template?.references(position, "NS.objects") != nil {
                return try collection(name, elements, at: position, known: true, depth: depth)
            }
            return try object(name, at: position, depth: depth) {
                encoder throws(KeyedArchiveError) in
                var fields: [(String, FieldValue)] = []
                for (offset, element) in elements.enumerated() {
                    let key = "NS.object.\(offset)"
                    let place = known ? encoder.template?.reference(position, key) : nil
                    let uid = try encoder.encode(element, at: place, depth: depth + 1)
                    fields.append((key, .reference(uid)))
                }
                return fields
            }
        case .dictionary(let entries):
            let name = like("NSDictionary", "NSMutableDictionary") ?? "NSDictionary"
            let known = name == shape
            return try object(name, at: position, depth: depth) {
                encoder throws(KeyedArchiveError) in
                let keyPlaces = known ? encoder.template?.references(position, "NS.keys") : nil
                let valuePlaces = known ? encoder.template?.references(position, "NS.objects") : nil
                var keys: [Int] = []
                var values: [Int] = []
                for (offset, entry) in entries.enumerated() {
                    let place = keyPlaces.flatMap { offset < $0.count ? $0[offset] : nil }
                    keys.append(try encoder.encode(entry.key, at: place, depth: depth + 1))
                }
                for (offset, entry) in entries.enumerated() {
                    let place = valuePlaces.flatMap { offset < $0.count ? $0[offset] : nil }
                    values.append(try encoder.encode(entry.value, at: place, depth: depth + 1))
                }
                return [("NS.keys", .references(keys)), ("NS.objects", .references(values))]
            }
        case .attributedString(let archived), .unknown(let archived):
            return try kept(
                archived, attributed: value.isAttributedString, at: position, depth: depth)
        }
    }

    private mutating func collection(
        _ name: String, _ elements: [FoundationValue], at position: Int?, known: Bool, depth: Int
    ) throws(KeyedArchiveError) -> Int {
        try object(name, at: position, depth: depth) { encoder throws(KeyedArchiveError) in
            let places = known ? encoder.template?.references(position, "NS.objects") : nil
            var uids: [Int] = []
            for (offset, element) in elements.enumerated() {
                let place = places.flatMap { offset < $0.count ? $0[offset] : nil }
                uids.append(try encoder.encode(element, at: place, depth: depth + 1))
            }
            return [("NS.objects", .references(uids))]
        }
    }

    /// A string, number or data written as itself in `$objects`.
    private mutating func scalar(_ entry: PropertyListTable.Entry, at position: Int?) -> Int {
        let uid = reserve()
        if let template, let position, template.entry(position) == entry {
            objects[uid] = .scalar(
                entry, identity: .template(template.id, template.objects[position]))
        } else {
            objects[uid] = .scalar(entry, identity: freshIdentity())
        }
        return uid
    }

    /// A number: equal numbers written without a template share one object, as Foundation's
    /// tagged and singleton numbers do.
    private mutating func number(_ number: ArchivedNumber, at position: Int?) -> Int {
        let entry: PropertyListTable.Entry
        switch number {
        case .bool(let flag): entry = .bool(flag)
        case .integer(let value): entry = .integer(value)
        case .unsignedInteger(let value):
            entry = value > UInt64(Int64.max) ? .unsignedInteger(value) : .integer(Int64(value))
        case .float(let value): entry = .float(value)
        case .double(let value): entry = .double(value)
        }
        if let template, let position, template.entry(position) == entry {
            return scalar(entry, at: position)
        }
        if let known = numbers[number] { return known }
        let uid = scalar(entry, at: nil)
        if case .bool = entry { objects[uid] = .repeated(entry) }
        numbers[number] = uid
        return uid
    }

    /// What an object's field holds.
    enum FieldValue {
        case inline(PropertyListTable.Entry)
        case reference(Int)
        case references([Int])
    }

    /// Writes an object: its `$objects` entry first, then what `fields` encodes, then its class
    /// record; keys in the template's order when it had the same keys, else in encoding order
    /// with `$class` last.
    private mutating func object(
        _ className: String, at position: Int?, depth: Int,
        fields build: (inout FoundationArchiveEncoder) throws(KeyedArchiveError) -> [(
            String, FieldValue
        )]
    ) throws(KeyedArchiveError) -> Int {
        let uid = reserve()
        let fields = try build(&self)
        let classUID = try classRecord(className, from: template)
        let sameClass = position.flatMap { template?.className($0) } == className
        let written = sameClass ? position.flatMap { template?.fields($0) } : nil
        var entries: [(key: String, node: PropertyListNode, keyIndex: Int?)] = []
        for (key, field) in fields {
            let place = written?.first { $0.key == key }
            let node: PropertyListNode
            switch field {
            case .reference(let target): node = .repeated(.uid(UInt64(target)))
            case .references(let targets):
                node = .array(targets.map { .repeated(.uid(UInt64($0))) })
            case .inline(let entry):
                if let template, let place, template.table.objects[place.value] == entry {
                    node = .scalar(entry, identity: .template(template.id, place.value))
                } else {
                    node = .scalar(entry, identity: freshIdentity())
                }
            }
            entries.append((key, node, place?.keyIndex))
        }
        let classPlace = written?.first { $0.key == "$class" }
        entries.append(("$class", .repeated(.uid(UInt64(classUID))), classPlace?.keyIndex))
        if let written, Set(written.map(\.key)) == Set(entries.map(\.key)),
            written.count == entries.count
        {
            let rank = Dictionary(uniqueKeysWithValues: written.enumerated().map { ($1.key, $0) })
            entries.sort { (rank[$0.key] ?? 0) < (rank[$1.key] ?? 0) }
        }
        objects[uid] = .dictionary(
            entries.map { entry in
                let identity =
                    entry.keyIndex.flatMap { index in template?.fieldNameIdentity(index) }
                    ?? .constant(entry.key)
                return (.scalar(.string(entry.key), identity: identity), entry.node)
            })
        return uid
    }

    /// The class record of `className`, written once: as `source` has it when it has one.
    private mutating func classRecord(_ className: String, from source: ArchiveTemplate?)
        throws(KeyedArchiveError) -> Int
    {
        if let known = classRecords[className] { return known }
        let uid = reserve()
        classRecords[className] = uid
        if let source, let record = source.classRecords[className],
            let fields = source.fields(record)
        {
            var entries: [(key: PropertyListNode, value: PropertyListNode)] = []
            for field in fields {
                let key = PropertyListNode.scalar(
                    .string(field.key), identity: source.fieldNameIdentity(field.keyIndex))
                let value = try Self.field(field.value, in: source, owner: record) { index in
                    source.table.string(at: index) != nil ? source.classNameIdentity(index) : nil
                }
                entries.append((key, value))
            }
            objects[uid] = .dictionary(entries)
            return uid
        }
        let chain = [className] + (Self.superclasses[className] ?? []) + ["NSObject"]
        objects[uid] = .dictionary([
            (
                .scalar(.string("$classname"), identity: .constant("$classname")),
                .scalar(.string(className), identity: .className(className))
            ),
            (
                .scalar(.string("$classes"), identity: .constant("$classes")),
                .array(chain.map { .scalar(.string($0), identity: .className($0)) })
            ),
        ])
        return uid
    }

    // MARK: Objects kept as archived

    /// An attributed string or an object of an unknown class: copied from the template where
    /// the template holds the same archive, else from its own archive (an attributed string
    /// whose text changed is written with its text alone).
    private mutating func kept(
        _ archived: ArchivedObjectBytes, attributed: Bool, at position: Int?, depth: Int
    ) throws(KeyedArchiveError) -> Int {
        if let template, let position, template.className(position) == archived.className {
            var encoder = FoundationArchiveEncoder(template: template)
            if (try? encoder.archive(copying: position)) == archived.archive {
                return try copy(position, from: template, depth: depth)
            }
        }
        let own: ArchiveTemplate?
        if let known = foreign[archived.archive] {
            own = known
        } else if let parsed = try? ArchiveTemplate(data: archived.archive, id: foreign.count + 1) {
            foreign[archived.archive] = parsed
            own = parsed
        } else {
            own = nil
        }
        if attributed {
            var text: String?
            if let own, let string = own.reference(own.root, "NSString") {
                var decoder = FoundationArchiveDecoder(template: own, source: archived.archive)
                text = (try? decoder.value(string, depth: 0))?.string
            }
            if own == nil || text != archived.text {
                let string = archived.text ?? ""
                return try object(archived.className, at: nil, depth: depth) {
                    encoder throws(KeyedArchiveError) in
                    [
                        (
                            "NSString",
                            .reference(
                                try encoder.encode(.string(string), at: nil, depth: depth + 1))
                        )
                    ]
                }
            }
        }
        guard let own else {
            throw .notAKeyedArchive(
                reason:
                    "the archive kept for an object of class \(archived.className) cannot be read")
        }
        return try copy(own.root, from: own, depth: depth)
    }

    /// Copies `$objects` entry `uid` of `source` and what it refers to, as written there: the
    /// objects it refers to in the order the archiver first wrote them.
    private mutating func copy(_ uid: Int, from source: ArchiveTemplate, depth: Int)
        throws(KeyedArchiveError) -> Int
    {
        if uid == 0 { return 0 }
        if let done = copied[source.id]?[uid] { return done }
        guard depth < KeyedArchive.maximumNesting else {
            throw .malformedObject(
                index: uid,
                reason: "objects nest more than \(KeyedArchive.maximumNesting) levels deep")
        }
        guard let entry = source.entry(uid) else {
            throw .malformedObject(index: uid, reason: "no such object")
        }
        let result = reserve()
        copied[source.id, default: [:]][uid] = result
        guard case .dictionary = entry, let fields = source.fields(uid) else {
            switch entry {
            case .string, .data, .integer, .unsignedInteger, .float, .double, .date:
                objects[result] = .scalar(
                    entry, identity: .template(source.id, source.objects[uid]))
            case .bool: objects[result] = .repeated(entry)
            default:
                throw .malformedObject(
                    index: uid, reason: "is of kind \(entry.kind), not an object")
            }
            return result
        }
        guard let className = source.className(uid) else {
            throw .malformedObject(
                index: uid, reason: "$class is not a reference to a class record")
        }
        var targets: [Int] = []
        for field in fields where field.key != "$class" {
            try collectReferences(field.value, in: source, into: &targets, owner: uid)
        }
        for target in Set(targets).sorted() {
            _ = try copy(target, from: source, depth: depth + 1)
        }
        let classUID = try classRecord(className, from: source)
        var entries: [(key: PropertyListNode, value: PropertyListNode)] = []
        for field in fields {
            let key = PropertyListNode.scalar(
                .string(field.key), identity: source.fieldNameIdentity(field.keyIndex))
            if field.key == "$class" {
                entries.append((key, .repeated(.uid(UInt64(classUID)))))
                continue
            }
            let done = copied[source.id] ?? [:]
            let value = try Self.field(field.value, in: source, owner: uid) { _ in
                nil
            } uid: {
                done[$0] ?? 0
            }
            entries.append((key, value))
        }
        objects[result] = .dictionary(entries)
        return result
    }

    private func collectReferences(
        _ index: Int, in source: ArchiveTemplate, into targets: inout [Int], owner: Int
    ) throws(KeyedArchiveError) {
        switch source.table.objects[index] {
        case .uid(let target):
            guard target < UInt64(source.objects.count) else {
                throw .malformedObject(index: owner, reason: "refers to no object (\(target))")
            }
            targets.append(Int(target))
        case .array(let elements), .set(let elements):
            for element in elements {
                guard case .uid(let target) = source.table.objects[element] else { continue }
                guard target < UInt64(source.objects.count) else {
                    throw .malformedObject(index: owner, reason: "refers to no object (\(target))")
                }
                targets.append(Int(target))
            }
        default:
            break
        }
    }

    /// A field of an object or class record of `source`, as written there: a scalar (with the
    /// identity `identity` gives, else its own in `source`), a reference (renumbered by `uid`), or
    /// an array or set of those. Containers nested inside a field, which `NSKeyedArchiver` never
    /// writes, are an error (so a field that contains itself costs nothing).
    private static func field(
        _ index: Int, in source: ArchiveTemplate, owner: Int,
        identity: (Int) -> PropertyListIdentity?, uid: (Int) -> Int = { $0 }, nested: Bool = false
    ) throws(KeyedArchiveError) -> PropertyListNode {
        let entry = source.table.objects[index]
        switch entry {
        case .uid(let target):
            return .repeated(.uid(UInt64(uid(Int(min(target, UInt64(Int.max)))))))
        case .bool, .null:
            return .repeated(entry)
        case .array(let elements), .set(let elements):
            guard !nested else {
                throw .malformedObject(
                    index: owner, reason: "a field nests a container in a container")
            }
            var nodes: [PropertyListNode] = []
            nodes.reserveCapacity(elements.count)
            for element in elements {
                nodes.append(
                    try field(
                        element, in: source, owner: owner, identity: identity, uid: uid,
                        nested: true))
            }
            if case .set = entry { return .set(nodes) }
            return .array(nodes)
        case .dictionary:
            throw .malformedObject(
                index: owner, reason: "a field holds a dictionary without a class")
        default:
            return .scalar(entry, identity: identity(index) ?? .template(source.id, index))
        }
    }
}

extension FoundationValue {
    var isAttributedString: Bool {
        if case .attributedString = self { return true }
        return false
    }

    var string: String? {
        if case .string(let text) = self { return text }
        return nil
    }
}
