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

    /// The archive's bytes, with `root` as `$top`'s `root`.
    public func archive(root: PropertyListObject) -> Data {
        BinaryPropertyList.encode(
            .dictionary([
                "$archiver": .string("NSKeyedArchiver"), "$version": .integer(100_000),
                "$top": .dictionary(["root": root]), "$objects": .array(objects),
            ]))
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
