import Foundation

/// A keyed archive read as it was written: its property-list table, where each `$objects`
/// entry lies in it, the order of its top keys, and which string objects serve as its field
/// names and class names. ``FoundationArchive`` reads values from it and writes values in its
/// image (same class names, same shared objects, same key order).
struct ArchiveTemplate: Sendable {
    /// Tells templates apart in one encoding (their table indices are not comparable).
    let id: Int
    let table: PropertyListTable
    /// The table index of each `$objects` entry.
    let objects: [Int]
    /// `$top`'s entries and the top dictionary's, as written.
    let top: [(key: String, keyIndex: Int, value: Int)]
    let topFields: [(key: String, keyIndex: Int, value: Int)]
    /// The `$objects` index of the root.
    let root: Int
    /// For each field name, the first string object written for it as a key of an object.
    private var fieldNames: [String: Int] = [:]
    /// For each class name, the first string object written for it in a class record.
    private var classNames: [String: Int] = [:]
    /// For each class name, the `$objects` index of its first class record.
    private(set) var classRecords: [String: Int] = [:]

    init(data: Data, id: Int) throws(KeyedArchiveError) {
        self.id = id
        table = try PropertyListTable(data: data)
        guard let top = table.dictionary(at: table.top) else {
            throw .notAKeyedArchive(reason: "the top object is not a dictionary")
        }
        self.top = top
        func field(_ name: String) -> Int? { top.first { $0.key == name }?.value }
        guard let archiver = field("$archiver"), table.string(at: archiver) == "NSKeyedArchiver"
        else {
            throw .notAKeyedArchive(reason: "$archiver is not the string NSKeyedArchiver")
        }
        guard let list = field("$objects"), case .array(let objects) = table.objects[list] else {
            throw .notAKeyedArchive(reason: "there is no $objects array")
        }
        guard let topIndex = field("$top"), let topFields = table.dictionary(at: topIndex) else {
            throw .notAKeyedArchive(reason: "there is no $top dictionary")
        }
        guard let rootField = topFields.first(where: { $0.key == "root" }) else {
            throw .notAKeyedArchive(reason: "$top has no root")
        }
        guard case .uid(let root) = table.objects[rootField.value], root < UInt64(objects.count)
        else {
            throw .notAKeyedArchive(reason: "$top's root is not a reference to an object")
        }
        self.objects = objects
        self.topFields = topFields
        self.root = Int(root)
        indexNames()
    }

    /// Notes the first field-name and class-name strings and the class records.
    private mutating func indexNames() {
        for (position, index) in objects.enumerated() {
            guard let fields = table.dictionary(at: index) else { continue }
            if let name = fields.first(where: { $0.key == "$classname" }) {
                if let text = table.string(at: name.value), classRecords[text] == nil {
                    classRecords[text] = position
                }
                for field in fields {
                    if let text = table.string(at: field.value), classNames[text] == nil {
                        classNames[text] = field.value
                    }
                    if fieldNames[field.key] == nil { fieldNames[field.key] = field.keyIndex }
                    if case .array(let names) = table.objects[field.value] {
                        for name in names {
                            if let text = table.string(at: name), classNames[text] == nil {
                                classNames[text] = name
                            }
                        }
                    }
                }
                continue
            }
            for field in fields where fieldNames[field.key] == nil {
                fieldNames[field.key] = field.keyIndex
            }
        }
    }

    /// The fields of the object at `$objects` index `uid`, as written (`nil` when that entry
    /// is not an object).
    func fields(_ uid: Int) -> [(key: String, keyIndex: Int, value: Int)]? {
        guard objects.indices.contains(uid) else { return nil }
        return table.dictionary(at: objects[uid])
    }

    /// The entry at `$objects` index `uid`.
    func entry(_ uid: Int) -> PropertyListTable.Entry? {
        objects.indices.contains(uid) ? table.objects[objects[uid]] : nil
    }

    /// The class name of the object at `uid` (`nil` when it is no object or its `$class` is
    /// not a class record).
    func className(_ uid: Int) -> String? {
        guard let fields = fields(uid), let field = fields.first(where: { $0.key == "$class" }),
            case .uid(let record) = table.objects[field.value], record < UInt64(objects.count),
            let recordFields = self.fields(Int(record)),
            let name = recordFields.first(where: { $0.key == "$classname" })
        else { return nil }
        return table.string(at: name.value)
    }

    /// The `$objects` index the field `key` of object `uid` refers to.
    func reference(_ uid: Int?, _ key: String) -> Int? {
        guard let uid, let field = fields(uid)?.first(where: { $0.key == key }),
            case .uid(let target) = table.objects[field.value], target < UInt64(objects.count)
        else { return nil }
        return Int(target)
    }

    /// The `$objects` indices listed by the array field `key` of object `uid`.
    func references(_ uid: Int?, _ key: String) -> [Int]? {
        guard let uid, let field = fields(uid)?.first(where: { $0.key == key }),
            case .array(let elements) = table.objects[field.value]
        else { return nil }
        var result: [Int] = []
        for element in elements {
            guard case .uid(let target) = table.objects[element], target < UInt64(objects.count)
            else { return nil }
            result.append(Int(target))
        }
        return result
    }

    /// The identity the string at table index `index`, used as a field name, is written with:
    /// the archiver's one constant when it is the first such string, else its own.
    func fieldNameIdentity(_ index: Int) -> PropertyListIdentity {
        if let text = table.string(at: index), fieldNames[text] == index { return .constant(text) }
        return .template(id, index)
    }

    /// The identity of the string at `index` used in a class record.
    func classNameIdentity(_ index: Int) -> PropertyListIdentity {
        if let text = table.string(at: index), classNames[text] == index {
            return .className(text)
        }
        return .template(id, index)
    }
}
