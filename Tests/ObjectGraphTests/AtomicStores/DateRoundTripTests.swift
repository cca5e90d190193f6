import Foundation
import Testing

@testable import ObjectGraph

/// Every date ObjectGraph writes into a store file reads back identical, or the write fails
/// naming the value (and the entity and property, or the metadata key) — never a different
/// date or an unreadable file.
@Suite struct DateRoundTripTests {
    /// Seconds from 2001-01-01 at the edges: years 1 and 9999, a date before the Gregorian
    /// reform (1500-03-01), far past and future, infinities, tiny and negative zero.
    static let edges: [Double] = [
        -63_113_904_000, 252_423_993_599, -15_804_979_200, 0, 0.75, 1e15, -1e15, 1e300,
        -1e300, .infinity, -.infinity, 1e-30, .leastNonzeroMagnitude, -0.0, 1e-5 + 1e-20,
    ]

    /// `seconds` as `type` stores write them: saved, reopened, fetched.
    static func roundTrip(_ seconds: [Double], in type: StoreType) throws -> [Double?] {
        let folder = try TestSupport.makeTemporaryFolder()
        defer { TestSupport.removeTemporaryFolder(folder) }
        let url = folder.appendingPathComponent("dates.store")
        let context = try AtomicStoreTestSupport.open(type, at: url)
        for (index, value) in seconds.enumerated() {
            let object = try context.insert("All")
            try object.set(Int64(index), for: "i64")
            try object.set(Date(timeIntervalSinceReferenceDate: value), for: "when")
        }
        try context.save()
        let again = try AtomicStoreTestSupport.open(type, at: url)
        var request = FetchRequest(entityName: "All")
        request.sortDescriptors = [ObjectGraph.SortDescriptor("i64")]
        return try again.fetch(request).map {
            ($0["when"] as Date?)?.timeIntervalSinceReferenceDate
        }
    }

    @Test(
        "Date attributes read back equal, NaN as NaN", arguments: [StoreType.xml, .binary, .sqlite])
    func attributes(type: StoreType) throws {
        let values = Self.edges + (type == .sqlite ? [] : [.nan])
        let read = try Self.roundTrip(values, in: type)
        #expect(read.count == values.count)
        for (written, back) in zip(values, read) {
            // Equal dates (SQLite keeps -0.0 as 0, the same instant); NaN reads back NaN.
            let same = back.map { $0 == written || ($0.isNaN && written.isNaN) } ?? false
            #expect(same, "wrote \(written), read \(back as Any)")
        }
    }

    @Test("a NaN date or double is refused by a SQLite store, naming entity and property")
    func sqliteRefusesNaN() throws {
        for attribute in ["when", "dbl"] {
            let folder = try TestSupport.makeTemporaryFolder()
            defer { TestSupport.removeTemporaryFolder(folder) }
            let context = try AtomicStoreTestSupport.open(
                .sqlite, at: folder.appendingPathComponent("nan.sqlite"))
            let object = try context.insert("All")
            if attribute == "when" {
                try object.set(Date(timeIntervalSinceReferenceDate: .nan), for: attribute)
            } else {
                try object.set(Double.nan, for: attribute)
            }
            let error = try #require(throws: StoreError.self) { try context.save() }
            #expect("\(error)".contains("All.\(attribute)"), "\(error)")
            #expect("\(error)".contains("NaN"), "\(error)")
        }
    }

    // MARK: - Metadata

    static let schema = ModelSchema(model: AtomicStoreTestSupport.model())

    /// `entries` in the metadata of `format`'s file, written and read back.
    static func metadataRoundTrip(
        _ entries: [String: PropertyListValue], format: any AtomicStoreFormat
    ) throws -> [String: PropertyListValue] {
        var metadata = StoreMetadata(model: AtomicStoreTestSupport.model())
        metadata.additionalEntries = entries
        let contents = AtomicStoreContents(metadata: metadata, rows: [], nextKeys: [:])
        let data = try format.write(contents, schema: schema)
        return try format.read(data, path: "/tmp/dates", schema: schema).metadata
            .additionalEntries
    }

    @Test("XML store metadata keeps dates of years 0001-9999 in whole seconds")
    func xmlMetadataInRange() throws {
        let dates = [-63_113_904_000, 252_423_993_599, -15_804_979_200, 0, 1_000_000_000.0]
        var entries: [String: PropertyListValue] = [:]
        for (index, seconds) in dates.enumerated() {
            entries["D\(index)"] = .date(Date(timeIntervalSinceReferenceDate: seconds))
        }
        entries["Fraction"] = .date(Date(timeIntervalSinceReferenceDate: -0.25))
        entries["Reals"] = .array([.real(.infinity), .real(-.infinity), .real(1e-30)])
        let read = try Self.metadataRoundTrip(entries, format: XMLStoreFormat())
        for (index, seconds) in dates.enumerated() {
            #expect(read["D\(index)"] == .date(Date(timeIntervalSinceReferenceDate: seconds)))
        }
        // Fractions of a second are dropped, as by every XML property list writer.
        #expect(read["Fraction"] == .date(Date(timeIntervalSinceReferenceDate: -1)))
        #expect(read["Reals"] == entries["Reals"])
        guard
            case .real(let nan)? = try Self.metadataRoundTrip(
                ["NaN": .real(.nan)], format: XMLStoreFormat())["NaN"]
        else {
            Issue.record("NaN did not read back as a real")
            return
        }
        #expect(nan.isNaN)
    }

    @Test(
        "XML store metadata refuses a date outside years 0001-9999, naming key, date and range",
        arguments: [
            252_423_993_600, -63_113_904_001, 1e15, -1e15, 1e300, .infinity, -.infinity, .nan,
        ])
    func xmlMetadataOutOfRange(seconds: Double) throws {
        let date = PropertyListValue.date(Date(timeIntervalSinceReferenceDate: seconds))
        for (entries, key) in [
            (["LastSync": date], "LastSync"),
            (["History": .array([.string("x"), .dictionary(["at": date])])], "History.[1].at"),
        ] {
            var metadata = StoreMetadata(model: AtomicStoreTestSupport.model())
            metadata.additionalEntries = entries
            let contents = AtomicStoreContents(metadata: metadata, rows: [], nextKeys: [:])
            let error = try #require(throws: (any Error).self) {
                try XMLStoreFormat().write(contents, schema: Self.schema)
            }
            let text = "\(error)"
            #expect(text.contains("\(key): the date"), "\(text)")
            #expect(text.contains("\(seconds) seconds from 2001-01-01"), "\(text)")
            #expect(text.contains("0001-01-01 00:00:00 through 9999-12-31 23:59:59 UTC"), "\(text)")
        }
    }

    @Test("binary and SQLite store metadata keep every date exactly")
    func binaryMetadataKeepsEveryDate() throws {
        var entries: [String: PropertyListValue] = [:]
        for (index, seconds) in (Self.edges + [.nan]).enumerated() {
            entries["D\(index)"] = .date(Date(timeIntervalSinceReferenceDate: seconds))
        }
        let fromBinary = try Self.metadataRoundTrip(entries, format: BinaryStoreFormat())
        // SQLite's Z_METADATA.Z_PLIST is the same binary property list.
        var metadata = StoreMetadata(model: AtomicStoreTestSupport.model())
        metadata.additionalEntries = entries
        let fromSQLite = try StoreMetadata(
            storeUUID: metadata.storeUUID, propertyList: metadata.propertyListData()
        ).additionalEntries
        for read in [fromBinary, fromSQLite] {
            for (index, seconds) in (Self.edges + [.nan]).enumerated() {
                guard case .date(let date)? = read["D\(index)"] else {
                    Issue.record("D\(index) is not a date: \(read["D\(index)"] as Any)")
                    continue
                }
                #expect(date.timeIntervalSinceReferenceDate.bitPattern == seconds.bitPattern)
            }
        }
    }
}
