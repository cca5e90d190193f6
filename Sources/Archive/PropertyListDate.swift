import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// The dates an XML property list can hold, and their text.
///
/// An XML property list writes a date as `<date>YYYY-MM-DDTHH:MM:SSZ</date>`: UTC, the
/// proleptic Gregorian calendar, whole seconds and a four-digit year, so 0001-01-01 00:00:00
/// through 9999-12-31 23:59:59. Past those years Foundation's writer puts text its own reader
/// takes for another date (year 10,000 and beyond) or cannot read (infinity, NaN). A binary
/// property list keeps any `Date` exactly.
///
/// ```swift
/// PropertyListDate.xmlText(Date(timeIntervalSinceReferenceDate: 0))  // "2001-01-01T00:00:00Z"
/// PropertyListDate.xmlText(Date(timeIntervalSinceReferenceDate: 3e11))  // nil: year 11,507
/// ```
package enum PropertyListDate {
    /// Seconds from 2001-01-01 00:00:00 UTC of the first and last whole second an XML property
    /// list can hold: 0001-01-01 00:00:00 and 9999-12-31 23:59:59 UTC.
    package static let xmlRange: ClosedRange<TimeInterval> = -63_113_904_000...252_423_993_599

    /// `0001-01-01 00:00:00 through 9999-12-31 23:59:59 UTC`: the range in words, for messages.
    package static let xmlRangeText = "0001-01-01 00:00:00 through 9999-12-31 23:59:59 UTC"

    /// Seconds between 1970-01-01 and 2001-01-01.
    private static let referenceOffset: TimeInterval = 978_307_200

    /// Whether an XML property list can hold `date` (rounded down to the whole second).
    package static func fitsXML(_ date: Date) -> Bool {
        xmlRange.contains(date.timeIntervalSinceReferenceDate.rounded(.down))
    }

    /// The `<date>` text of `date` rounded down to the whole second (`2024-05-01T12:00:00Z`),
    /// or `nil` when it is outside ``xmlRange``.
    package static func xmlText(_ date: Date) -> String? {
        let seconds = date.timeIntervalSinceReferenceDate.rounded(.down)
        guard xmlRange.contains(seconds), let fields = utc(seconds) else { return nil }
        return fields.date + "T" + fields.time + "Z"
    }

    /// `date` for a message: `10000-01-01 00:00:00 UTC (252423993600 seconds from 2001-01-01)`,
    /// or only the seconds when the date has no calendar text (infinity, NaN, beyond ±2^31
    /// years).
    package static func describe(_ date: Date) -> String {
        let interval = date.timeIntervalSinceReferenceDate
        let seconds = "\(interval) seconds from 2001-01-01 00:00:00 UTC"
        guard let fields = utc(interval.rounded(.down)) else { return seconds }
        return fields.date + " " + fields.time + " UTC (" + seconds + ")"
    }

    /// The first date in a property-list `object` for which `test` holds, with its key path
    /// (keys by name, indexes as `[n]`, dictionary keys in sorted order).
    package static func firstDate(
        in object: Any, path: [String], where test: (Date) -> Bool
    ) -> (Date, [String])? {
        if let date = object as? Date {
            return test(date) ? (date, path) : nil
        } else if let array = object as? [Any] {
            for (index, element) in array.enumerated() {
                if let found = firstDate(in: element, path: path + ["[\(index)]"], where: test) {
                    return found
                }
            }
        } else if let dictionary = object as? [String: Any] {
            for key in dictionary.keys.sorted() {
                if let element = dictionary[key],
                    let found = firstDate(in: element, path: path + [key], where: test)
                {
                    return found
                }
            }
        }
        return nil
    }

    /// The UTC calendar date (`YYYY-MM-DD`, at least four year digits, a `-` for years before
    /// 1; year 0 is 1 BC) and time of day (`HH:MM:SS`) of whole `seconds` from 2001-01-01, on
    /// the proleptic Gregorian calendar (glibc's `gmtime_r`).
    private static func utc(_ seconds: TimeInterval) -> (date: String, time: String)? {
        let unix = seconds + referenceOffset
        guard unix.isFinite, abs(unix) < 6.7e16 else { return nil }
        var clock = time_t(unix)
        var fields = tm()
        guard gmtime_r(&clock, &fields) != nil else { return nil }
        let year = Int(fields.tm_year) + 1900
        let digits = String(abs(year))
        let yearText =
            (year < 0 ? "-" : "") + String(repeating: "0", count: max(0, 4 - digits.count))
            + digits
        return (
            yearText + "-" + two(fields.tm_mon + 1) + "-" + two(fields.tm_mday),
            two(fields.tm_hour) + ":" + two(fields.tm_min) + ":" + two(fields.tm_sec)
        )
    }

    private static func two(_ value: Int32) -> String {
        value < 10 ? "0\(value)" : "\(value)"
    }
}
