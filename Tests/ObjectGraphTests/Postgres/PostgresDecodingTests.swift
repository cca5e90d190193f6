import Foundation
import Testing

@testable import ObjectGraph

/// Rows a PostgreSQL store decodes straight into a context (fetches, batches of to-one
/// targets, prefetched to-many lists) hold exactly the values saved: edge values of every
/// attribute type and nil.
@Suite("PostgreSQL row decoding")
struct PostgresDecodingTests {
    /// `Holder(name)` ↔ `Item(every attribute type)`.
    static func model() -> EntityModel {
        let item = Entity(
            "Item",
            attributes: [
                Attribute("k", type: .integer64), Attribute("i16", type: .integer16),
                Attribute("i32", type: .integer32), Attribute("i64", type: .integer64),
                Attribute("dec", type: .decimal), Attribute("dbl", type: .double),
                Attribute("flt", type: .float), Attribute("str", type: .string),
                Attribute("flag", type: .boolean), Attribute("when", type: .date),
                Attribute("bytes", type: .binary), Attribute("id", type: .uuid),
                Attribute("link", type: .uri), Attribute("blob", type: .transformable),
            ],
            relationships: [Relationship("holder", destination: "Holder", inverse: "items")])
        let holder = Entity(
            "Holder", attributes: [Attribute("name", type: .string)],
            relationships: [
                Relationship("items", destination: "Item", toMany: true, inverse: "holder")
            ])
        return EntityModel(entities: [item, holder])
    }

    static let uuid = UUID()

    /// The values of item `k` (nil where an item has no value of that attribute).
    static let items: [[String: Value]] = [
        [
            "i16": .integer(Int64(Int16.min)), "i32": .integer(Int64(Int32.min)),
            "i64": .integer(Int64.min), "dec": .decimal(Decimal(string: "-0.000001") ?? 0),
            "dbl": .double(-0.0), "flt": .double(Double(-Float(0))), "str": .string(""),
            "flag": .bool(false), "when": .date(Date(timeIntervalSinceReferenceDate: -1e9 - 0.25)),
            "bytes": .data(Data()), "id": .uuid(uuid),
            "link": .uri(URL(string: "https://example.com/ü?q=1#f") ?? URL(fileURLWithPath: "/")),
            "blob": .data(Data([0])),
        ],
        [
            "i16": .integer(Int64(Int16.max)), "i32": .integer(Int64(Int32.max)),
            "i64": .integer(Int64.max),
            "dec": .decimal(Decimal(string: "12345678901234567890.123456789") ?? 0),
            "dbl": .double(.nan), "flt": .double(Double(Float.infinity)),
            "str": .string("日本語 é 🎉 'q' \"d\"; --"), "flag": .bool(true),
            "when": .date(Date(timeIntervalSinceReferenceDate: -1.5)),
            "bytes": .data(Data((0...255).map { UInt8($0) })),
            "id": .uuid(UUID(uuidString: "00000000-0000-0000-0000-000000000000") ?? uuid),
            "blob": .data(Data("\\x".utf8)),
        ],
        [
            "i16": .integer(-1), "i32": .integer(0), "i64": .integer(-9_999_999_999),
            "dec": .decimal(-42), "dbl": .double(.infinity), "flt": .double(Double(Float(1.1))),
            "str": .string(" spaced "), "when": .date(Date(timeIntervalSinceReferenceDate: 0)),
        ],
        [
            "dbl": .double(-.infinity), "i64": .integer(0),
            "when": .date(Date(timeIntervalSinceReferenceDate: 123_456.000_001_5)),
        ],
        ["dbl": .double(0.1), "dec": .decimal(0)],
        [:],
    ]

    static let attributes = [
        "i16", "i32", "i64", "dec", "dbl", "flt", "str", "flag", "when", "bytes", "id", "link",
        "blob",
    ]

    /// Whether `read` is `expected` exactly: a double's sign and NaN included.
    static func same(_ read: Value?, _ expected: Value?) -> Bool {
        switch (read ?? .null, expected ?? .null) {
        case (.double(let a), .double(let b)):
            return a.bitPattern == b.bitPattern || (a.isNaN && b.isNaN)
        case (let a, let b): return a == b
        }
    }

    /// Saves the items in two holders (even and odd `k`) in a fresh store; returns its URL.
    static func seed() throws -> URL {
        let url = try PostgresStoreTests.freshURL()
        let context = try PostgresStoreTests.open(url, model: model())
        let holders = try ["even", "odd"].map { name in
            let holder = try context.insert("Holder")
            try holder.set(name, for: "name")
            return holder
        }
        for (k, values) in items.enumerated() {
            let item = try context.insert("Item")
            try item.set(Int64(k), for: "k")
            for (key, value) in values { try item.set(value, for: key) }
            try item.setObject(holders[k % 2], for: "holder")
        }
        try context.save()
        return url
    }

    /// Checks that `item` holds the values of ``items`` at its `k`.
    static func check(_ item: ManagedObject) {
        guard let k = item["k"] as Int?, k >= 0, k < items.count else {
            Issue.record("an item without a known k")
            return
        }
        for key in attributes {
            let read: Value? = item[key]
            #expect(same(read, items[k][key]), "item \(k).\(key): \(String(describing: read))")
        }
    }

    @Test("a fetch reads every value exactly")
    func fetched() throws {
        let url = try Self.seed()
        let context = try PostgresStoreTests.open(url, model: Self.model())
        let fetched = try context.fetch(FetchRequest(entityName: "Item"))
        #expect(fetched.count == Self.items.count)
        for item in fetched { Self.check(item) }
    }

    @Test("prefetched to-many lists and to-one targets read every value exactly")
    func prefetched() throws {
        let url = try Self.seed()
        let context = try PostgresStoreTests.open(url, model: Self.model())
        var request = FetchRequest(entityName: "Holder")
        request.relationshipKeyPathsForPrefetching = ["items"]
        request.sortDescriptors = [SortDescriptor("name")]
        let holders = try context.fetch(request)
        #expect(holders.compactMap { $0["name"] as String? } == ["even", "odd"])
        var seen: [Int] = []
        for (parity, holder) in zip([0, 1], holders) {
            for item in try holder.objects(for: "items") {
                Self.check(item)
                if let k = item["k"] as Int? {
                    #expect(k % 2 == parity)
                    seen.append(k)
                }
            }
        }
        #expect(seen.sorted() == Array(Self.items.indices))

        let other = try PostgresStoreTests.open(url, model: Self.model())
        var items = FetchRequest(entityName: "Item")
        items.relationshipKeyPathsForPrefetching = ["holder"]
        for item in try other.fetch(items) {
            Self.check(item)
            let k = item["k"] as Int? ?? -1
            #expect(
                try item.object(for: "holder")?["name"] as String? == (k % 2 == 0 ? "even" : "odd"))
        }
    }
}
