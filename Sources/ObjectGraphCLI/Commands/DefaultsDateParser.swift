import Foundation
import Preferences

/// The dates `objectgraph defaults write -date` accepts, read on the proleptic Gregorian
/// calendar (the calendar of a property list's `<date>`): `2024-05-01T12:00:00Z`,
/// `2024-05-01T14:00:00+02:00`, `2024-05-01 12:00:00 +0000`, `2024-05-01 12:00:00` and
/// `2024-05-01` (the last two in UTC). Years have at least four digits; a date outside
/// ``PreferenceDate/supportedRange`` (years 0001 through 9999) is an error naming it and the
/// range, never a different date.
enum DefaultsDateParser {
    typealias ValueError = DefaultsCommand.ValueError

    /// The date `text` names.
    ///
    /// - Throws: ``DefaultsCommand/ValueError`` for text that is not a date in one of the forms
    ///   above, and for a date outside the supported range.
    static func parse(_ text: String) throws(ValueError) -> Date {
        var scanner = Scanner(Array(text.utf8))
        let malformed = ValueError(message: "'\(text)' is not a date (2024-05-01T12:00:00Z)")
        let outOfRange = ValueError(
            message: "'\(text)' is outside the dates a property list keeps "
                + "(\(PreferenceDate.supportedRangeText))")
        let negative = scanner.take("-")
        if !negative { _ = scanner.take("+") }
        let yearDigits = scanner.digits()
        guard yearDigits.count >= 4, scanner.take("-"), let month = scanner.number(2),
            scanner.take("-"), let day = scanner.number(2)
        else { throw malformed }
        var (hour, minute, second, offset) = (0, 0, 0, 0)
        if scanner.take("T") || scanner.take(" ") {
            guard let h = scanner.number(2), scanner.take(":"), let m = scanner.number(2),
                scanner.take(":"), let s = scanner.number(2)
            else { throw malformed }
            (hour, minute, second) = (h, m, s)
            _ = scanner.take(" ")
            if scanner.take("Z") {
                offset = 0
            } else if !scanner.isAtEnd {
                guard let zone = scanner.zoneOffset() else { throw malformed }
                offset = zone
            }
        }
        guard scanner.isAtEnd else { throw malformed }
        // More digits than an Int holds are out of range too, not malformed.
        guard yearDigits.count <= 10,
            let magnitude = Int(String(decoding: yearDigits, as: UTF8.self)),
            magnitude <= 1_000_000_000
        else { throw outOfRange }
        guard
            let local = PreferenceDate.date(
                year: negative ? -magnitude : magnitude, month: month, day: day, hour: hour,
                minute: minute, second: second)
        else { throw malformed }
        let date = local.addingTimeInterval(TimeInterval(-offset))
        guard PreferenceDate.supportedRange.contains(date) else { throw outOfRange }
        return date
    }

    /// Reads ASCII bytes left to right.
    private struct Scanner {
        let bytes: [UInt8]
        var index = 0

        init(_ bytes: [UInt8]) { self.bytes = bytes }

        var isAtEnd: Bool { index == bytes.count }

        /// Skips `character` if it comes next.
        mutating func take(_ character: Unicode.Scalar) -> Bool {
            guard index < bytes.count, bytes[index] == UInt8(ascii: character) else { return false }
            index += 1
            return true
        }

        /// The run of decimal digits that comes next (maybe none).
        mutating func digits() -> ArraySlice<UInt8> {
            let start = index
            while index < bytes.count,
                (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index])
            {
                index += 1
            }
            return bytes[start..<index]
        }

        /// Exactly `count` digits as a number.
        mutating func number(_ count: Int) -> Int? {
            let start = index
            var value = 0
            while index < bytes.count, index - start < count,
                (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index])
            {
                value = value * 10 + Int(bytes[index] - UInt8(ascii: "0"))
                index += 1
            }
            return index - start == count ? value : nil
        }

        /// `+HH:MM`, `+HHMM`, `-HH:MM` or `-HHMM` in seconds east of UTC, hours 0–23.
        mutating func zoneOffset() -> Int? {
            let sign: Int
            if take("+") {
                sign = 1
            } else if take("-") {
                sign = -1
            } else {
                return nil
            }
            guard let hours = number(2) else { return nil }
            _ = take(":")
            guard let minutes = number(2), hours <= 23, minutes <= 59 else { return nil }
            return sign * (hours * 3600 + minutes * 60)
        }
    }
}
