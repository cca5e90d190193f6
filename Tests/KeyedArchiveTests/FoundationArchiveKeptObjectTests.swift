import Foundation
import KeyedArchive
import Testing

/// Objects the decoder does not know, and attributed strings: kept as archived, written back
/// unchanged alone or inside collections, even when they refer to themselves.
@Suite struct FoundationArchiveKeptObjectTests {
    /// An array holding an app's `Node` object whose `next` is itself and whose `name` is a
    /// string, and a string.
    static let nested: Data = {
        var builder = KeyedArchiveBuilder()
        _ = builder.add(
            .dictionary(["NS.objects": .array([.uid(2), .uid(5)]), "$class": .uid(6)]))
        _ = builder.add(
            .dictionary([
                "next": .uid(2), "name": .uid(3), "weight": .real(0.5), "$class": .uid(4),
            ]))
        _ = builder.add(.string("first"))
        _ = builder.add(
            .dictionary([
                "$classname": .string("MyApp.Node"),
                "$classes": .array([.string("MyApp.Node"), .string("NSObject")]),
            ]))
        _ = builder.add(.string("after"))
        _ = builder.add(
            .dictionary([
                "$classname": .string("NSArray"),
                "$classes": .array([.string("NSArray"), .string("NSObject")]),
            ]))
        return builder.archive(root: .uid(1))
    }()

    @Test("an unknown class at the root is its archive, saved unchanged")
    func unknownRoot() throws {
        var builder = KeyedArchiveBuilder()
        let root = builder.addObject(
            className: "UIColor", fields: ["UIRed": .real(1), "UIColorComponentCount": .integer(4)])
        let bytes = builder.archive(root: root)
        let value = try FoundationArchive.decode(bytes)
        #expect(value == .unknown(ArchivedObjectBytes(className: "UIColor", archive: bytes)))
        #expect(try FoundationArchive.encode(value) == bytes)
    }

    @Test("an unknown object inside a collection, referring to itself, round-trips byte for byte")
    func unknownNested() throws {
        let value = try FoundationArchive.decode(Self.nested)
        guard case .array(let elements) = value, elements.count == 2,
            case .unknown(let node) = elements[0]
        else {
            Issue.record("unexpected \(value)")
            return
        }
        #expect(node.className == "MyApp.Node")
        #expect(elements[1] == .string("after"))
        #expect(try FoundationArchive.encode(value, like: Self.nested) == Self.nested)
        // Written without the archive it came from, the node is copied from its own archive.
        let fresh = try FoundationArchive.encode(value)
        #expect(try FoundationArchive.decode(fresh) == value)
        // Its own archive holds the node as root, the cycle kept.
        guard case .unknown(let alone) = try FoundationArchive.decode(node.archive) else {
            Issue.record("the kept archive is not the node")
            return
        }
        #expect(alone.className == "MyApp.Node")
        let archive = try KeyedArchive(data: node.archive)
        let root = try #require(try archive.rootValue().object)
        #expect(try root.value(forKey: "next")?.object == root)
        #expect(try root.value(forKey: "name") == .string("first"))
    }

    @Test("an attributed string reads as its text and keeps its attributes while the text stays")
    func attributedString() throws {
        var builder = KeyedArchiveBuilder()
        _ = builder.add(
            .dictionary([
                "NSString": .uid(2), "NSAttributes": .uid(3), "$class": .uid(6),
            ]))
        _ = builder.add(.string("Hello"))
        _ = builder.add(
            .dictionary([
                "NS.keys": .array([.uid(4)]), "NS.objects": .array([.uid(5)]), "$class": .uid(7),
            ]))
        _ = builder.add(.string("NSFont"))
        _ = builder.add(.string("Helvetica"))
        _ = builder.add(
            .dictionary([
                "$classname": .string("NSAttributedString"),
                "$classes": .array([.string("NSAttributedString"), .string("NSObject")]),
            ]))
        _ = builder.add(
            .dictionary([
                "$classname": .string("NSDictionary"),
                "$classes": .array([.string("NSDictionary"), .string("NSObject")]),
            ]))
        let bytes = builder.archive(root: .uid(1))
        let value = try FoundationArchive.decode(bytes)
        guard case .attributedString(let text) = value else {
            Issue.record("not an attributed string: \(value)")
            return
        }
        #expect(text.text == "Hello")
        #expect(try FoundationArchive.encode(value) == bytes)
        #expect(
            try FoundationArchive.encode(.array([value])).range(of: Data("Helvetica".utf8)) != nil)
        let edited = FoundationValue.attributedString(
            ArchivedObjectBytes(className: "NSAttributedString", text: "Bye", archive: bytes))
        let written = try FoundationArchive.encode(edited)
        guard case .attributedString(let read) = try FoundationArchive.decode(written) else {
            Issue.record("the edited string is not an attributed string")
            return
        }
        #expect(read.text == "Bye")
        #expect(written.range(of: Data("Helvetica".utf8)) == nil)
    }
}
