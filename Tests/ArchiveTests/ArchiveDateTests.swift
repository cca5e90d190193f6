import Archive
import Foundation
import Testing

/// Dates in archives: the binary format keeps every `Date` exactly; the XML format keeps
/// years 0001–9999 and refuses the others, naming the date and where it is.
@Suite struct ArchiveDateTests {
    struct Event: Codable, Equatable {
        var name: String
        var when: Date
    }

    /// 0001-01-01 00:00:00 UTC.
    static let first = Date(timeIntervalSinceReferenceDate: -63_113_904_000)
    /// 9999-12-31 23:59:59 UTC.
    static let last = Date(timeIntervalSinceReferenceDate: 252_423_993_599)

    static let edges: [Double] = [
        -63_113_904_000, 252_423_993_599, -15_804_979_200, 0, 1e15, -1e15, 1e300, -1e300,
        .infinity, -.infinity, 1e-30, 0.75, -0.0,
    ]

    @Test("the binary format reads back every date exactly", arguments: edges + [.nan])
    func binaryKeepsEveryDate(seconds: Double) throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let url = folder.url.appendingPathComponent("event.plist")
        try Archive.write(
            Event(name: "e", when: Date(timeIntervalSinceReferenceDate: seconds)), to: url)
        let read = try Archive.read(Event.self, from: url)
        #expect(read.when.timeIntervalSinceReferenceDate.bitPattern == seconds.bitPattern)
    }

    @Test("the XML format reads back years 0001 and 9999 and whole seconds")
    func xmlKeepsItsRange() throws {
        for date in [Self.first, Self.last, Date(timeIntervalSinceReferenceDate: -15_804_979_200)] {
            let data = try Archive.encode(Event(name: "e", when: date), format: .xml)
            #expect(try Archive.decode(Event.self, from: data).when == date)
        }
    }

    @Test(
        "the XML format refuses a date it cannot hold, naming it and the range",
        arguments: [
            252_423_993_600, -63_113_904_001, 1e15, -1e15, 1e300, .infinity, -.infinity, .nan,
        ])
    func xmlRefusesOutOfRange(seconds: Double) throws {
        let event = Event(name: "e", when: Date(timeIntervalSinceReferenceDate: seconds))
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let url = folder.url.appendingPathComponent("event.plist")
        let error = try #require(throws: ArchiveError.self) {
            try Archive.write(event, to: url, format: .xml)
        }
        let text = error.description
        #expect(text.contains("0001-01-01 00:00:00 through 9999-12-31 23:59:59 UTC"), "\(text)")
        #expect(text.contains("at when"), "\(text)")
        #expect(text.contains("\(seconds) seconds from 2001-01-01"), "\(text)")
        #expect(!FileManager.default.fileExists(atPath: url.path))
        // Nested and bare dates are found too.
        let nested = ["list": [Self.first, event.when]]
        let nestedError = try #require(throws: ArchiveError.self) {
            try Archive.encode(nested, format: .xml)
        }
        #expect(nestedError.description.contains("at list.[1]"), "\(nestedError)")
        #expect(throws: ArchiveError.self) { try Archive.encode(event.when, format: .xml) }
        // The binary format takes it.
        _ = try Archive.encode(event, format: .binary)
    }
}
