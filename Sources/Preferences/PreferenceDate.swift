import Archive
import Foundation

/// The dates a preferences file keeps, and their text.
///
/// An XML property list writes a date as `YYYY-MM-DDTHH:MM:SSZ`: UTC, the proleptic Gregorian
/// calendar, whole seconds, and a four-digit year, so years 0001 through 9999. Foundation's
/// writer goes on past them with longer years that other readers refuse, and past 2^31 years
/// writes another date altogether; parsers of date text overflow much earlier. So preferences
/// store only dates in ``supportedRange``: ``Preferences/set(_:forKey:)``, ``Preferences/encode(_:forKey:)``,
/// ``Preferences/update(forKey:_:)`` and every write of the file refuse any other date with
/// ``PreferencesError/dateOutOfRange(key:value:)``, which names the key and the date.
///
/// ```swift
/// PreferenceDate.supportedRange.contains(Date())          // true
/// PreferenceDate.text(Date(timeIntervalSince1970: 0))     // "1970-01-01 00:00:00 +0000"
/// PreferenceDate.date(year: 2024, month: 5, day: 1, hour: 12)  // 2024-05-01 12:00:00 UTC
/// ```
public enum PreferenceDate {
    /// From 0001-01-01 00:00:00 UTC up to, not including, 10000-01-01 00:00:00 UTC.
    /// (The whole seconds an XML property list can hold: Archive's `PropertyListDate.xmlRange`.)
    public static let supportedRange: Range<Date> = {
        let seconds = PropertyListDate.xmlRange
        let first = Date(timeIntervalSinceReferenceDate: seconds.lowerBound)
        return first..<Date(timeIntervalSinceReferenceDate: seconds.upperBound + 1)
    }()

    /// `0001-01-01 00:00:00 +0000 through 9999-12-31 23:59:59 +0000`: the range in words, for
    /// error messages.
    public static var supportedRangeText: String {
        text(supportedRange.lowerBound) + " through "
            + text(supportedRange.upperBound.addingTimeInterval(-1))
    }

    /// `date` as `2024-05-01 12:00:00 +0000` (UTC, proleptic Gregorian calendar, seconds
    /// rounded down), the way `defaults read` prints it. Any date has a text: years beyond
    /// 9999 get more digits, years before 0001 a minus sign (year 0 is 1 BC).
    public static func text(_ date: Date) -> String {
        let interval = date.timeIntervalSince1970.rounded(.down)
        guard interval.isFinite, abs(interval) < 9e18 else {
            return "\(date.timeIntervalSinceReferenceDate) seconds from 2001-01-01 00:00:00 +0000"
        }
        let seconds = Int64(interval)
        let (days, time) = divide(seconds, by: 86_400)
        let (year, month, day) = civil(fromDays: days)
        let yearText = String(abs(year))
        let sign = year < 0 ? "-" : ""
        return sign + String(repeating: "0", count: max(0, 4 - yearText.count)) + yearText + "-"
            + twoDigits(month) + "-" + twoDigits(day) + " " + twoDigits(time / 3600) + ":"
            + twoDigits(time / 60 % 60) + ":" + twoDigits(time % 60) + " +0000"
    }

    /// The date of a day and time in UTC on the proleptic Gregorian calendar, or `nil` when a
    /// field is out of its range (month 1–12, day within the month, hour 0–23, minute and
    /// second 0–59) or the year is beyond ±1,000,000,000. The date may lie outside
    /// ``supportedRange``; check before storing it.
    public static func date(
        year: Int, month: Int, day: Int, hour: Int = 0, minute: Int = 0, second: Int = 0
    ) -> Date? {
        guard abs(year) <= 1_000_000_000, (1...12).contains(month),
            (1...daysIn(month: month, year: year)).contains(day), (0...23).contains(hour),
            (0...59).contains(minute), (0...59).contains(second)
        else { return nil }
        let days = Int64(days(fromYear: year, month: month, day: day))
        let seconds = days * 86_400 + Int64(hour * 3600 + minute * 60 + second)
        return Date(timeIntervalSince1970: TimeInterval(seconds))
    }

    // MARK: Checking values

    /// Throws ``PreferencesError/dateOutOfRange(key:value:)`` if `object` (a property-list
    /// object, searched through arrays and dictionaries) holds a date a property list cannot
    /// keep.
    static func check(_ object: Any, key: String) throws(PreferencesError) {
        let outside = PropertyListDate.firstDate(in: object, path: []) {
            !supportedRange.contains($0)
        }
        if let (date, _) = outside { throw .dateOutOfRange(key: key, value: text(date)) }
    }

    // MARK: Calendar arithmetic (days since 1970-01-01, proleptic Gregorian)

    private static func days(fromYear year: Int, month: Int, day: Int) -> Int {
        let shifted = month <= 2 ? year - 1 : year
        let era = (shifted >= 0 ? shifted : shifted - 399) / 400
        let yearOfEra = shifted - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    private static func civil(fromDays days: Int64) -> (year: Int64, month: Int, day: Int) {
        let shifted = days + 719_468
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra =
            (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let shiftedMonth = (5 * dayOfYear + 2) / 153
        let day = Int(dayOfYear - (153 * shiftedMonth + 2) / 5 + 1)
        let month = Int(shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9)
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    private static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2:
            let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
            return leap ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// Floor division: a quotient rounded down and a remainder in `0..<divisor`.
    private static func divide(_ value: Int64, by divisor: Int64) -> (Int64, Int) {
        let remainder = value % divisor
        return remainder < 0
            ? (value / divisor - 1, Int(remainder + divisor)) : (value / divisor, Int(remainder))
    }

    private static func twoDigits(_ value: some BinaryInteger) -> String {
        value < 10 ? "0\(value)" : "\(value)"
    }
}
