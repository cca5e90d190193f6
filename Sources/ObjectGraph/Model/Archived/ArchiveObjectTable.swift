import Foundation
import KeyedArchive

/// The `$objects` of an `NSKeyedArchiver` archive being written, for object graphs with cycles
/// (an entity and its properties refer to each other): a slot can be reserved first and
/// filled once its fields are known. Class records and strings are added once each.
struct ArchiveObjectTable {
    /// The objects so far (the first is `$null`).
    private(set) var objects: [PropertyListObject] = [.string("$null")]
    private var classRecords: [String: PropertyListObject] = [:]
    private var strings: [String: PropertyListObject] = [:]

    /// The reference to `nil`.
    static let null = PropertyListObject.uid(0)

    /// The superclasses Foundation and Core Data record for each class written (`NSObject`
    /// alone for any other).
    static let superclasses: [String: [String]] = [
        "NSAttributeDescription": ["NSPropertyDescription", "NSObject"],
        "NSDerivedAttributeDescription": [
            "NSAttributeDescription", "NSPropertyDescription", "NSObject",
        ],
        "NSRelationshipDescription": ["NSPropertyDescription", "NSObject"],
        "NSFetchedPropertyDescription": ["NSPropertyDescription", "NSObject"],
        "NSKnownKeysDictionary1": [
            "NSKnownKeysDictionary", "NSMutableDictionary", "NSDictionary", "NSObject",
        ],
        "NSKnownKeysMappingStrategy1": ["NSKnownKeysMappingStrategy", "NSObject"],
        "NSMutableArray": ["NSArray", "NSObject"],
        "NSMutableDictionary": ["NSDictionary", "NSObject"],
        "NSMutableSet": ["NSSet", "NSObject"],
        "NSMutableString": ["NSString", "NSObject"],
        "NSDecimalNumber": ["NSNumber", "NSValue", "NSObject"],
        "NSFetchRequest": ["NSPersistentStoreRequest", "NSObject"],
        "NSComparisonPredicate": ["NSPredicate", "NSObject"],
        "NSCompoundPredicate": ["NSPredicate", "NSObject"],
        "NSTruePredicate": ["NSPredicate", "NSObject"],
        "NSFalsePredicate": ["NSPredicate", "NSObject"],
        "NSComparisonPredicateOperator": ["NSPredicateOperator", "NSObject"],
        "NSEqualityPredicateOperator": ["NSPredicateOperator", "NSObject"],
        "NSMatchingPredicateOperator": [
            "NSStringPredicateOperator", "NSPredicateOperator", "NSObject",
        ],
        "NSLikePredicateOperator": [
            "NSStringPredicateOperator", "NSPredicateOperator", "NSObject",
        ],
        "NSBeginsWithPredicateOperator": [
            "NSStringPredicateOperator", "NSPredicateOperator", "NSObject",
        ],
        "NSEndsWithPredicateOperator": [
            "NSStringPredicateOperator", "NSPredicateOperator", "NSObject",
        ],
        "NSInPredicateOperator": ["NSPredicateOperator", "NSObject"],
        "NSBetweenPredicateOperator": ["NSPredicateOperator", "NSObject"],
        "NSKeyPathExpression": ["NSFunctionExpression", "NSExpression", "NSObject"],
    ]

    /// Reserves a slot for an object whose fields come later (``fill(_:_:_:)``).
    mutating func reserve() -> PropertyListObject {
        objects.append(.string("$null"))
        return .uid(UInt64(objects.count - 1))
    }

    /// Fills the reserved slot `reference` with an object of class `className`.
    mutating func fill(
        _ reference: PropertyListObject, _ className: String,
        _ fields: [String: PropertyListObject]
    ) {
        guard case .uid(let index) = reference, index > 0, index < UInt64(objects.count) else {
            return
        }
        var entries = fields
        entries["$class"] = classRecord(className)
        objects[Int(index)] = .dictionary(entries)
    }

    /// Adds an object of class `className` with `fields`; returns its reference.
    mutating func object(_ className: String, _ fields: [String: PropertyListObject])
        -> PropertyListObject
    {
        let reference = reserve()
        fill(reference, className, fields)
        return reference
    }

    /// The reference to `text` (added once however often it is used).
    mutating func string(_ text: String) -> PropertyListObject {
        if let known = strings[text] { return known }
        objects.append(.string(text))
        let reference = PropertyListObject.uid(UInt64(objects.count - 1))
        strings[text] = reference
        return reference
    }

    /// The reference to `text`, or `$null`.
    mutating func string(_ text: String?) -> PropertyListObject {
        text.map { string($0) } ?? Self.null
    }

    /// Adds a plain value (a number, data…) as its own object.
    mutating func value(_ value: PropertyListObject) -> PropertyListObject {
        objects.append(value)
        return .uid(UInt64(objects.count - 1))
    }

    /// Adds an array (or set) of class `className`.
    mutating func array(_ elements: [PropertyListObject], _ className: String = "NSArray")
        -> PropertyListObject
    {
        object(className, ["NS.objects": .array(elements)])
    }

    /// Adds an array of `names`, each a string.
    mutating func strings(_ names: [String], _ className: String = "NSArray")
        -> PropertyListObject
    {
        var elements: [PropertyListObject] = []
        for name in names { elements.append(string(name)) }
        return array(elements, className)
    }

    /// Adds a dictionary of class `className` with string keys.
    mutating func dictionary(
        _ entries: [(key: String, value: PropertyListObject)], _ className: String = "NSDictionary"
    ) -> PropertyListObject {
        var keys: [PropertyListObject] = []
        for entry in entries { keys.append(string(entry.key)) }
        return object(
            className, ["NS.keys": .array(keys), "NS.objects": .array(entries.map(\.value))])
    }

    /// The archive's bytes with `root` as `$top`'s `root`.
    func archive(root: PropertyListObject) -> Data {
        BinaryPropertyList.encode(
            .dictionary([
                "$archiver": .string("NSKeyedArchiver"), "$version": .integer(100_000),
                "$top": .dictionary(["root": root]), "$objects": .array(objects),
            ]))
    }

    private mutating func classRecord(_ className: String) -> PropertyListObject {
        if let known = classRecords[className] { return known }
        let expression = className.hasSuffix("Expression") && className != "NSExpression"
        let names =
            [className]
            + (Self.superclasses[className]
                ?? (expression ? ["NSExpression", "NSObject"] : ["NSObject"]))
        objects.append(
            .dictionary([
                "$classname": .string(className), "$classes": .array(names.map { .string($0) }),
            ]))
        let reference = PropertyListObject.uid(UInt64(objects.count - 1))
        classRecords[className] = reference
        return reference
    }
}
