import Foundation

/// Reads values from PostgreSQL's binary form (what a statement run with binary results
/// returns): big-endian integers and IEEE doubles, `boolean` as one byte, `uuid` as 16 bytes,
/// `bytea` as its bytes, text as its UTF-8, `numeric` as base-10000 digits. ``text(_:type:)``
/// gives the text form the server would have sent instead, so that a value read as another
/// type than its column's is read exactly as from the text form.
enum PostgresBinaryForm {
    /// The types of the columns a binary result may hold, by type OID.
    enum ColumnType: Equatable {
        case int2, int4, int8, float4, float8, bool, numeric, uuid, bytea, text
        /// A type read in text form only (its OID).
        case other(UInt32)

        init(oid: UInt32) {
            switch oid {
            case 16: self = .bool
            case 17: self = .bytea
            case 20: self = .int8
            case 21: self = .int2
            case 23: self = .int4
            case 19, 25, 705, 1042, 1043: self = .text
            case 700: self = .float4
            case 701: self = .float8
            case 1700: self = .numeric
            case 2950: self = .uuid
            default: self = .other(oid)
            }
        }

        /// Whether every column of these types can be read from the binary form.
        static func allReadable(_ types: [ColumnType]) -> Bool {
            !types.contains { if case .other = $0 { return true } else { return false } }
        }
    }

    /// An integer column's value (`int2`, `int4`, `int8`); `nil` for another type or length.
    static func integer(_ bytes: UnsafeBufferPointer<UInt8>, type: ColumnType) -> Int64? {
        let raw = UnsafeRawBufferPointer(bytes)
        switch (type, bytes.count) {
        case (.int8, 8): return Int64(bigEndian: raw.loadUnaligned(as: Int64.self))
        case (.int4, 4): return Int64(Int32(bigEndian: raw.loadUnaligned(as: Int32.self)))
        case (.int2, 2): return Int64(Int16(bigEndian: raw.loadUnaligned(as: Int16.self)))
        default: return nil
        }
    }

    /// A `double precision` column's value; `nil` for another type or length.
    static func float8(_ bytes: UnsafeBufferPointer<UInt8>, type: ColumnType) -> Double? {
        guard type == .float8, bytes.count == 8 else { return nil }
        return Double(
            bitPattern: UInt64(
                bigEndian: UnsafeRawBufferPointer(bytes).loadUnaligned(as: UInt64.self)))
    }

    /// A `uuid` column's value; `nil` for another type or length.
    static func uuid(_ bytes: UnsafeBufferPointer<UInt8>, type: ColumnType) -> UUID? {
        guard type == .uuid, bytes.count == 16 else { return nil }
        let b = bytes
        return UUID(
            uuid: (
                b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12],
                b[13], b[14], b[15]
            ))
    }

    /// The text form of a value of `type` (as the server writes it: `t`/`f`, `\x…` for
    /// bytes, lowercase UUIDs, a `numeric`'s exact digits); `nil` when the bytes are not a
    /// value of that type, or the type has no binary reading here.
    static func text(_ bytes: UnsafeBufferPointer<UInt8>, type: ColumnType) -> String? {
        switch type {
        case .text: return String(decoding: bytes, as: UTF8.self)
        case .int2, .int4, .int8: return integer(bytes, type: type).map { String($0) }
        case .bool: return bytes.count == 1 ? (bytes[0] != 0 ? "t" : "f") : nil
        case .float8: return float8(bytes, type: type).map(floatText)
        case .float4:
            guard bytes.count == 4 else { return nil }
            let bits = UInt32(
                bigEndian: UnsafeRawBufferPointer(bytes).loadUnaligned(as: UInt32.self))
            return floatText(Float(bitPattern: bits))
        case .uuid: return uuid(bytes, type: type).map { $0.uuidString.lowercased() }
        case .bytea: return hexText(bytes)
        case .numeric: return numericText(bytes)
        case .other: return nil
        }
    }

    /// Bytes in `bytea`'s hex text form (`\\x` and two lowercase digits a byte).
    static func hexText(_ bytes: some Collection<UInt8>) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var text = [UInt8](repeating: 0, count: 2 + bytes.count * 2)
        text[0] = UInt8(ascii: "\\")
        text[1] = UInt8(ascii: "x")
        for (offset, byte) in bytes.enumerated() {
            text[2 + offset * 2] = digits[Int(byte >> 4)]
            text[3 + offset * 2] = digits[Int(byte & 0xF)]
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// A float as the server writes it: `NaN`, `Infinity`, `-Infinity`, else its shortest
    /// digits that read back as it (without Swift's `.0` on whole numbers).
    static func floatText<F: BinaryFloatingPoint & CustomStringConvertible>(_ value: F) -> String {
        if value.isNaN { return "NaN" }
        if value.isInfinite { return value < 0 ? "-Infinity" : "Infinity" }
        let text = value.description
        return text.hasSuffix(".0") ? String(text.dropLast(2)) : text
    }

    /// A `numeric`'s text from its binary form (digit count, weight, sign, display scale,
    /// then base-10000 digits), as the server writes it: every digit of the display scale,
    /// `NaN`, `Infinity` and `-Infinity`; `nil` when the bytes are not that form.
    static func numericText(_ bytes: UnsafeBufferPointer<UInt8>) -> String? {
        guard bytes.count >= 8 else { return nil }
        let raw = UnsafeRawBufferPointer(bytes)
        let word = { (offset: Int) -> Int in
            Int(UInt16(bigEndian: raw.loadUnaligned(fromByteOffset: offset, as: UInt16.self)))
        }
        let count = word(0)
        let weight = Int(Int16(truncatingIfNeeded: word(2)))
        let sign = word(4)
        let scale = word(6)
        guard bytes.count == 8 + 2 * count else { return nil }
        switch sign {
        case 0xC000: return "NaN"
        case 0xD000: return "Infinity"
        case 0xF000: return "-Infinity"
        case 0x0000, 0x4000: break
        default: return nil
        }
        var digits: [Int] = []
        digits.reserveCapacity(count)
        for index in 0..<count {
            let digit = word(8 + 2 * index)
            guard digit < 10_000 else { return nil }
            digits.append(digit)
        }
        // The group at `index` of `digits` is worth 10000^(weight - index).
        let group = { (index: Int) -> Int in index >= 0 && index < count ? digits[index] : 0 }
        var text = sign == 0x4000 ? "-" : ""
        if weight < 0 {
            text += "0"
        } else {
            text += String(group(0))
            if weight > 0 {
                for index in 1...weight { text += padded(group(index)) }
            }
        }
        if scale > 0 {
            text += "."
            var written = 0
            var index = weight + 1
            while written < scale {
                let four = padded(group(index))
                text += four.prefix(min(4, scale - written))
                written += 4
                index += 1
            }
        }
        return text
    }

    /// `digit` (below 10000) as four decimal digits.
    private static func padded(_ digit: Int) -> String {
        let text = String(digit)
        return String(repeating: "0", count: 4 - text.count) + text
    }
}
