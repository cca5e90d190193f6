import Foundation

/// Builds an `NSKeyedArchiver` archive object by object: the inverse of ``KeyedArchive``, for
/// writing archives (and tests that need hand-made or hostile ones).
///
/// ```swift
/// var builder = KeyedArchiveBuilder()
/// let name = builder.add(.string("source"))
/// let variable = builder.addObject(
///     className: "NSVariableExpression", superclasses: ["NSExpression", "NSObject"],
///     fields: ["NSVariable": name, "NSExpressionType": .integer(2)])
/// let bytes = builder.archive(root: variable)
/// ```
public struct KeyedArchiveBuilder: Sendable {
    /// The archive's `$objects` so far (the first is `$null`).
    public private(set) var objects: [PropertyListObject] = [.string("$null")]
    private var classRecords: [String: PropertyListObject] = [:]

    /// Creates an empty builder.
    public init() {}

    /// The reference to `nil` (`$null`).
    public static let null = PropertyListObject.uid(0)

    /// Adds `value` to `$objects`; returns its reference.
    public mutating func add(_ value: PropertyListObject) -> PropertyListObject {
        objects.append(value)
        return .uid(UInt64(objects.count - 1))
    }

    /// Adds an object of class `className` (with its superclasses, for `$classes`) and the
    /// given fields (references from ``add(_:)`` or inline numbers); returns its reference.
    public mutating func addObject(
        className: String, superclasses: [String] = ["NSObject"],
        fields: [String: PropertyListObject]
    ) -> PropertyListObject {
        var entries = fields
        entries["$class"] = classRecord(className, superclasses)
        return add(.dictionary(entries))
    }

    /// Adds an `NSArray` of the referenced elements.
    public mutating func addArray(_ elements: [PropertyListObject]) -> PropertyListObject {
        addObject(
            className: "NSArray", superclasses: ["NSObject"],
            fields: ["NS.objects": .array(elements)])
    }

    /// Adds an `NSDictionary` of the referenced keys and values.
    public mutating func addDictionary(
        _ entries: [(key: PropertyListObject, value: PropertyListObject)]
    )
        -> PropertyListObject
    {
        addObject(
            className: "NSDictionary", superclasses: ["NSObject"],
            fields: [
                "NS.keys": .array(entries.map(\.key)), "NS.objects": .array(entries.map(\.value)),
            ])
    }

    /// The archive's bytes, with `root` as `$top`'s `root`, laid out as `NSKeyedArchiver`
    /// (iOS 13 and later) lays it out: `$version`, `$archiver`, `$top`, `$objects`; an object's
    /// fields in sorted order with `$class` last; one string object per field name and per class
    /// name; every other string, number and data its own object.
    public func archive(root: PropertyListObject) -> Data {
        var fresh = 0
        func unique(_ entry: PropertyListTable.Entry) -> PropertyListNode {
            fresh += 1
            return .scalar(entry, identity: .fresh(fresh))
        }
        func field(_ value: PropertyListObject) -> PropertyListNode {
            switch value {
            case .array(let elements): return .array(elements.map(field))
            case .set(let elements): return .set(elements.map(field))
            case .dictionary: return BinaryPropertyListWriter.node(value)
            case .null, .bool, .uid: return BinaryPropertyListWriter.node(value)
            default: return unique(BinaryPropertyListWriter.entry(value) ?? .null)
            }
        }
        func className(_ value: PropertyListObject) -> PropertyListNode {
            switch value {
            case .string(let name): return .scalar(.string(name), identity: .className(name))
            case .array(let elements): return .array(elements.map(className))
            default: return field(value)
            }
        }
        func key(_ name: String) -> PropertyListNode {
            .scalar(.string(name), identity: .constant(name))
        }
        var list: [PropertyListNode] = []
        for object in objects {
            guard case .dictionary(let fields) = object else {
                list.append(field(object))
                continue
            }
            let isRecord = fields["$classname"] != nil
            let first = isRecord ? ["$classname", "$classes"] : []
            let last = isRecord ? [] : ["$class"]
            let middle = fields.keys.filter { !first.contains($0) && !last.contains($0) }.sorted()
            let names = (first + middle + last).filter { fields[$0] != nil }
            list.append(
                .dictionary(
                    names.map { name in
                        let value = fields[name] ?? .null
                        return (key(name), isRecord ? className(value) : field(value))
                    }))
        }
        let top: PropertyListNode = .dictionary([
            (key("$version"), unique(.integer(100_000))),
            (key("$archiver"), unique(.string("NSKeyedArchiver"))),
            (key("$top"), .dictionary([(key("root"), field(root))])),
            (key("$objects"), .array(list)),
        ])
        return PropertyListTableWriter(PropertyListFlattener.table(top)).data()
    }

    /// The class record for `className`, added once.
    private mutating func classRecord(_ className: String, _ superclasses: [String])
        -> PropertyListObject
    {
        if let known = classRecords[className] { return known }
        let names = [className] + superclasses
        let record = add(
            .dictionary([
                "$classname": .string(className), "$classes": .array(names.map { .string($0) }),
            ]))
        classRecords[className] = record
        return record
    }
}
