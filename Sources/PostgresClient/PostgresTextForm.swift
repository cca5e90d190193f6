import Foundation

/// Reads values from PostgreSQL's text form, as bytes (a column's value where libpq keeps it,
/// or a `String`'s UTF-8): the parsers behind ``PostgresRow`` and ``PostgresCursor``, so both
/// read every value alike.
enum PostgresTextForm {
    /// A decimal integer: an optional sign, then digits only; `nil` when that is not the form
    /// or the number does not fit in 64 bits (as `Int64(String)` reads it).
    static func int64(_ bytes: UnsafeBufferPointer<UInt8>) -> Int64? {
        guard let first = bytes.first else { return nil }
        let negative = first == UInt8(ascii: "-")
        var index = negative || first == UInt8(ascii: "+") ? 1 : 0
        guard index < bytes.count else { return nil }
        var value: Int64 = 0
        while index < bytes.count {
            let digit = bytes[index] &- UInt8(ascii: "0")
            guard digit < 10 else { return nil }
            let (shifted, overflowed) = value.multipliedReportingOverflow(by: 10)
            // Accumulated below zero for a negative number, so Int64.min fits.
            let (next, carried) =
                negative
                ? shifted.subtractingReportingOverflow(Int64(digit))
                : shifted.addingReportingOverflow(Int64(digit))
            guard !overflowed, !carried else { return nil }
            value = next
            index += 1
        }
        return value
    }

    /// A double (`Infinity`, `-Infinity` and `NaN` included), as `Double(String)` reads it.
    static func double(_ bytes: UnsafeBufferPointer<UInt8>) -> Double? {
        Double(String(decoding: bytes, as: UTF8.self))
    }

    /// A boolean: `t` or `f`.
    static func bool(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool? {
        guard bytes.count == 1 else { return nil }
        switch bytes[0] {
        case UInt8(ascii: "t"): return true
        case UInt8(ascii: "f"): return false
        default: return nil
        }
    }

    /// A UUID in its hyphenated form.
    static func uuid(_ bytes: UnsafeBufferPointer<UInt8>) -> UUID? {
        UUID(uuidString: String(decoding: bytes, as: UTF8.self))
    }

    /// A decimal from a `numeric`'s exact text; `nil` for `NaN` (no decimal a store keeps).
    static func decimal(_ bytes: UnsafeBufferPointer<UInt8>) -> Decimal? {
        Decimal(
            string: String(decoding: bytes, as: UTF8.self),
            locale: Locale(identifier: "en_US_POSIX")
        ).flatMap { $0.isNaN ? nil : $0 }
    }

    /// The bytes of bytea's hex output (`\x0aff`), `nil` when `bytes` is not that form.
    static func hexBytes(_ bytes: UnsafeBufferPointer<UInt8>) -> Data? {
        guard bytes.count >= 2, bytes[0] == UInt8(ascii: "\\"), bytes[1] == UInt8(ascii: "x"),
            bytes.count % 2 == 0
        else { return nil }
        var data = Data(count: (bytes.count - 2) / 2)
        let complete = data.withUnsafeMutableBytes { (target: UnsafeMutableRawBufferPointer) in
            var index = 2
            var offset = 0
            while index < bytes.count {
                guard let high = nibble(bytes[index]), let low = nibble(bytes[index + 1]) else {
                    return false
                }
                target[offset] = high << 4 | low
                offset += 1
                index += 2
            }
            return true
        }
        return complete ? data : nil
    }

    private static func nibble(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
        default: return nil
        }
    }

    /// The error for a column whose text is not of the type asked for: `column NAME (N) holds
    /// 'TEXT', not WHAT` (the text cut at 40 characters).
    static func mismatch(_ text: String, column: String, what: String) -> PostgresError {
        let shown = text.count > 40 ? String(text.prefix(40)) + "…" : text
        return PostgresError(.decoding, "column \(column) holds '\(shown)', not \(what)")
    }
}
