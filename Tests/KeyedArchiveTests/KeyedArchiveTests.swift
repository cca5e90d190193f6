import Foundation
import KeyedArchive
import Testing

/// Keyed archives: Foundation's plain classes decode to values, other objects to lazily decoded
/// `ArchivedObject`s, and malformed archives throw errors naming the object.
@Suite struct KeyedArchiveTests {
    @Test("plain classes decode to plain values")
    func plainClasses() throws {
        var builder = KeyedArchiveBuilder()
        let name = builder.add(.string("Ada"))
        let text = builder.addObject(
            className: "NSMutableString", fields: ["NS.string": .string("mutable")])
        let bytes = builder.addObject(className: "NSData", fields: ["NS.data": .data(Data([7]))])
        let date = builder.addObject(className: "NSDate", fields: ["NS.time": .real(10)])
        let null = builder.addObject(className: "NSNull", fields: [:])
        let set = builder.addObject(className: "NSSet", fields: ["NS.objects": .array([name])])
        let list = builder.addArray([name, text, bytes, date, null, set, builder.add(.integer(3))])
        let key = builder.add(.string("list"))
        let root = builder.addDictionary([(key, list)])
        let archive = try KeyedArchive(data: builder.archive(root: root))
        #expect(archive.topKeys == ["root"])
        let expected: ArchivedValue = .dictionary([
            .string("list"): .array([
                .string("Ada"), .string("mutable"), .data(Data([7])),
                .date(Date(timeIntervalSinceReferenceDate: 10)), .null, .set([.string("Ada")]),
                .integer(3),
            ])
        ])
        #expect(try archive.rootValue() == expected)
    }

    @Test("other objects decode lazily, and may refer to each other in cycles")
    func objectsAndCycles() throws {
        var builder = KeyedArchiveBuilder()
        let entityName = builder.add(.string("Person"))  // object 1
        // The entity (object 3, after its class record) refers to the relationship (object 5,
        // after its class record), which refers back to the entity.
        let entity = builder.addObject(
            className: "NSEntityDescription",
            fields: ["NSEntityName": entityName, "NSRelationship": .uid(5)])
        let relationship = builder.addObject(
            className: "NSRelationshipDescription", fields: ["NSDestination": entity])
        #expect(entity == .uid(3) && relationship == .uid(5))
        let archive = try KeyedArchive(data: builder.archive(root: entity))
        let root = try #require(try archive.rootValue().object)
        #expect(root.className == "NSEntityDescription")
        #expect(root.isKind(of: "NSObject"))
        #expect(root.keys == ["NSEntityName", "NSRelationship"])
        #expect(try root.value(forKey: "NSEntityName") == .string("Person"))
        let destination = try #require(try root.value(forKey: "NSRelationship")?.object)
        #expect(try destination.value(forKey: "NSDestination")?.object == root)
        #expect(try root.value(forKey: "missing") == nil)
    }

    @Test("an NSArray that contains itself throws instead of recursing forever")
    func collectionCycle() throws {
        var builder = KeyedArchiveBuilder()
        let list = builder.addArray([.uid(2)])  // the array is object 2 (after its class record)
        #expect(list == .uid(2))
        let archive = try KeyedArchive(data: builder.archive(root: list))
        #expect(
            throws: KeyedArchiveError.malformedObject(
                index: 2, reason: "contains itself (a reference cycle)")
        ) {
            try archive.rootValue()
        }
    }

    @Test("references to missing objects or classes throw, naming the object")
    func badReferences() throws {
        var builder = KeyedArchiveBuilder()
        let list = builder.addArray([.uid(99)])
        let archive = try KeyedArchive(data: builder.archive(root: list))
        #expect(
            throws: KeyedArchiveError.malformedObject(
                index: 2, reason: "refers to object 99, but the archive has 3")
        ) {
            try archive.rootValue()
        }
        var classless = KeyedArchiveBuilder()
        let object = classless.add(.dictionary(["NSName": .integer(1)]))
        #expect(
            throws: KeyedArchiveError.malformedObject(
                index: 1, reason: "an object without a $class reference")
        ) {
            try KeyedArchive(data: classless.archive(root: object)).rootValue()
        }
    }

    @Test("property lists that are not keyed archives are refused")
    func notKeyedArchives() {
        let plain = BinaryPropertyList.encode(.dictionary(["a": .integer(1)]))
        #expect(throws: KeyedArchiveError.notAKeyedArchive(reason: "there is no $archiver string"))
        {
            try KeyedArchive(data: plain)
        }
        let other = BinaryPropertyList.encode(
            .dictionary([
                "$archiver": .string("Other"), "$objects": .array([]), "$top": .dictionary([:]),
            ]))
        #expect(
            throws: KeyedArchiveError.notAKeyedArchive(
                reason: "$archiver is \"Other\", not NSKeyedArchiver")
        ) {
            try KeyedArchive(data: other)
        }
        let array = BinaryPropertyList.encode(.array([]))
        #expect(
            throws: KeyedArchiveError.notAKeyedArchive(reason: "the top object is not a dictionary")
        ) {
            try KeyedArchive(data: array)
        }
    }
}
