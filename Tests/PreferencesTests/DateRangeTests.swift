import Foundation
import Preferences
import Testing

/// Dates a property list cannot keep are refused with an error naming them, never stored as
/// another date.
@Suite struct DateRangeTests {
    /// Year 0000, year 10000, the years of issue 15 (5,900,000 and 9,999,999), where the XML
    /// writer's year overflows, and values that are no date at all; as seconds since 1970
    /// (Foundation's `Date.description`, which the test runner would call, traps on some).
    static let outOfRange: [TimeInterval] = [
        PreferenceDate.supportedRange.lowerBound.timeIntervalSince1970 - 1,
        PreferenceDate.supportedRange.upperBound.timeIntervalSince1970,
        186_123_849_580_800, 315_507_321_244_800, 1e20, -1e20, .infinity, .nan,
    ]

    @Test func theRangeIsYears0001Through9999() {
        let range = PreferenceDate.supportedRange
        #expect(PreferenceDate.text(range.lowerBound) == "0001-01-01 00:00:00 +0000")
        #expect(PreferenceDate.text(range.upperBound) == "10000-01-01 00:00:00 +0000")
        #expect(range.lowerBound == PreferenceDate.date(year: 1, month: 1, day: 1))
        #expect(range.upperBound == PreferenceDate.date(year: 10000, month: 1, day: 1))
        #expect(
            PreferenceDate.supportedRangeText
                == "0001-01-01 00:00:00 +0000 through 9999-12-31 23:59:59 +0000")
        #expect(PreferenceDate.text(Date(timeIntervalSince1970: 0)) == "1970-01-01 00:00:00 +0000")
        #expect(
            PreferenceDate.text(Date(timeIntervalSince1970: 315_507_321_244_800))
                == "9999999-01-01 00:00:00 +0000")
        #expect(PreferenceDate.date(year: 2023, month: 2, day: 29) == nil)
        #expect(PreferenceDate.date(year: 2024, month: 2, day: 29) != nil)
        #expect(PreferenceDate.date(year: 2024, month: 13, day: 1) == nil)
    }

    @Test func datesAtTheEdgesRoundTripThroughTheFile() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let preferences = try folder.preferences()
        let first = PreferenceDate.supportedRange.lowerBound
        let last = PreferenceDate.supportedRange.upperBound.addingTimeInterval(-1)
        let medieval = try #require(PreferenceDate.date(year: 1000, month: 1, day: 1))
        preferences.set(first, forKey: "first")
        preferences.set(last, forKey: "last")
        preferences.set(medieval, forKey: "medieval")
        try preferences.synchronize()
        #expect(preferences.lastError == nil)
        let stored = try TemporaryFolder.propertyList(at: preferences.fileURL)
        #expect(stored["first"] as? Date == first)
        #expect(stored["last"] as? Date == last)
        #expect(stored["medieval"] as? Date == medieval)
        let text = String(decoding: try Data(contentsOf: preferences.fileURL), as: UTF8.self)
        #expect(text.contains("<date>0001-01-01T00:00:00Z</date>"))
        #expect(text.contains("<date>9999-12-31T23:59:59Z</date>"))
        #expect(text.contains("<date>1000-01-01T00:00:00Z</date>"))
    }

    @Test(arguments: outOfRange)
    func setRefusesADateOutOfRange(seconds: TimeInterval) throws {
        let date = Date(timeIntervalSince1970: seconds)
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let preferences = try folder.preferences()
        let log = ErrorLog()
        preferences.errorHandler = { log.record($0) }
        preferences.set(Date(timeIntervalSince1970: 0), forKey: "when")
        preferences.set(date, forKey: "when")
        let expected = PreferencesError.dateOutOfRange(
            key: "when", value: PreferenceDate.text(date))
        #expect(preferences.lastError == expected)
        #expect(log.all == [expected])
        #expect(expected.description.contains("0001-01-01 00:00:00 +0000 through 9999-12-31"))
        #expect(preferences.date(forKey: "when") == Date(timeIntervalSince1970: 0), "unchanged")
        // Nested in a collection, too.
        preferences.set([PreferenceValue.date(date)], forKey: "list")
        #expect(preferences.object(forKey: "list") == nil)
        try preferences.synchronize()
        let stored = try TemporaryFolder.propertyList(at: preferences.fileURL)
        #expect(stored["when"] as? Date == Date(timeIntervalSince1970: 0))
        #expect(stored["list"] == nil)
    }

    @Test func encodeAndUpdateThrowForADateOutOfRange() throws {
        struct Event: Codable { var at: Date }
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let preferences = try folder.preferences()
        let far = Date(timeIntervalSince1970: 186_123_849_580_800)
        #expect(
            throws: PreferencesError.dateOutOfRange(
                key: "event", value: "5900000-01-01 00:00:00 +0000")
        ) {
            try preferences.encode(Event(at: far), forKey: "event")
        }
        #expect(preferences.object(forKey: "event") == nil)
        #expect(throws: PreferencesError.self) {
            try preferences.update(forKey: "event") { _ in .dictionary(["at": .date(far)]) }
        }
        #expect(!FileManager.default.fileExists(atPath: preferences.fileURL.path))
    }

    @Test func aFileHoldingADateOutOfRangeIsNotRewrittenWithAnotherDate() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let file = try folder.container().preferencesURL
            .appendingPathComponent("com.example.tests.plist")
        // A binary property list keeps any double; the XML writer would not.
        let far = Date(timeIntervalSinceReferenceDate: 1e20)
        let data = try PropertyListSerialization.data(
            fromPropertyList: ["far": far], format: .binary, options: 0)
        try data.write(to: file)
        let preferences = try folder.preferences()
        #expect(preferences.date(forKey: "far") == far)
        preferences.set(1, forKey: "other")
        #expect(
            throws: PreferencesError.dateOutOfRange(key: "far", value: PreferenceDate.text(far))
        ) {
            try preferences.synchronize()
        }
        #expect(try Data(contentsOf: file) == data, "the file is left as it was")
        // Removing the key lets writes go on.
        preferences.removeObject(forKey: "far")
        try preferences.synchronize()
        #expect(try TemporaryFolder.propertyList(at: file)["other"] as? Int == 1)
    }
}
