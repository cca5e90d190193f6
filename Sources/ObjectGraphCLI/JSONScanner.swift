import Foundation

/// Reads JSON from UTF-8 bytes: checks it, skips it without building anything, or builds
/// ``JSONValue``s. Nesting deeper than ``JSONValue/maximumNesting`` is invalid.
struct JSONScanner {
    /// The bytes are not one well-formed JSON value.
    struct Invalid: Error, CustomStringConvertible {
        /// `invalid JSON`.
        var description: String { "invalid JSON" }
    }

    private let bytes: UnsafeBufferPointer<UInt8>
    /// The offset of the next byte to read.
    private(set) var offset: Int

    /// A scanner of `bytes` from `offset`.
    init(_ bytes: UnsafeBufferPointer<UInt8>, at offset: Int = 0) {
        self.bytes = bytes
        self.offset = offset
    }

    /// The next byte after any whitespace, without consuming it; `nil` at the end.
    mutating func peek() -> UInt8? {
        while offset < bytes.count {
            switch bytes[offset] {
            case 0x20, 0x09, 0x0A, 0x0D: offset += 1
            default: return bytes[offset]
            }
        }
        return nil
    }

    /// Consumes `byte` (after whitespace).
    mutating func expect(_ byte: UInt8) throws(Invalid) {
        guard peek() == byte else { throw Invalid() }
        offset += 1
    }

    /// Consumes `byte` (after whitespace) if it comes next.
    mutating func consume(_ byte: UInt8) -> Bool {
        guard peek() == byte else { return false }
        offset += 1
        return true
    }

    /// Checks that only whitespace remains.
    mutating func expectEnd() throws(Invalid) {
        guard peek() == nil else { throw Invalid() }
    }

    /// Checks and steps over one value without building it.
    mutating func skipValue(depth: Int = 0) throws(Invalid) {
        switch peek() {
        case UInt8(ascii: "{"):
            try container(depth: depth, close: UInt8(ascii: "}")) { scanner throws(Invalid) in
                _ = try scanner.readKey()
                try scanner.skipValue(depth: depth + 1)
            }
        case UInt8(ascii: "["):
            try container(depth: depth, close: UInt8(ascii: "]")) { scanner throws(Invalid) in
                try scanner.skipValue(depth: depth + 1)
            }
        case UInt8(ascii: "\""): try skipString()
        default: _ = try readScalar()
        }
    }

    /// Reads one value.
    mutating func readValue(depth: Int = 0) throws(Invalid) -> JSONValue {
        switch peek() {
        case UInt8(ascii: "{"):
            var members: [(key: String, value: JSONValue)] = []
            try container(depth: depth, close: UInt8(ascii: "}")) { scanner throws(Invalid) in
                let key = try scanner.readKey()
                members.append((key, try scanner.readValue(depth: depth + 1)))
            }
            return .object(members)
        case UInt8(ascii: "["):
            var elements: [JSONValue] = []
            try container(depth: depth, close: UInt8(ascii: "]")) { scanner throws(Invalid) in
                elements.append(try scanner.readValue(depth: depth + 1))
            }
            return .array(elements)
        case UInt8(ascii: "\""):
            return .string(try readString())
        default:
            return try readScalar()
        }
    }

    /// Reads an array or object opening at the next byte, calling `item` for each element or
    /// member (the scanner then stands at its start) and consuming the separators.
    mutating func container(
        depth: Int, close: UInt8, _ item: (inout JSONScanner) throws(Invalid) -> Void
    ) throws(Invalid) {
        guard depth < JSONValue.maximumNesting else { throw Invalid() }
        offset += 1
        if consume(close) { return }
        repeat {
            try item(&self)
        } while consume(UInt8(ascii: ","))
        try expect(close)
    }

    /// A member's key and its colon.
    mutating func readKey() throws(Invalid) -> String {
        guard peek() == UInt8(ascii: "\"") else { throw Invalid() }
        let key = try readString()
        try expect(UInt8(ascii: ":"))
        return key
    }

    /// `null`, `true`, `false` or a number.
    private mutating func readScalar() throws(Invalid) -> JSONValue {
        guard offset < bytes.count else { throw Invalid() }
        switch bytes[offset] {
        case UInt8(ascii: "n"): return try word("null", .null)
        case UInt8(ascii: "t"): return try word("true", .bool(true))
        case UInt8(ascii: "f"): return try word("false", .bool(false))
        default: return try readNumber()
        }
    }

    /// Consumes `text`, which must come next, and returns `value`.
    private mutating func word(_ text: StaticString, _ value: JSONValue) throws(Invalid)
        -> JSONValue
    {
        let count = text.utf8CodeUnitCount
        guard offset + count <= bytes.count,
            bytes[offset..<offset + count].elementsEqual(
                UnsafeBufferPointer(start: text.utf8Start, count: count))
        else { throw Invalid() }
        offset += count
        return value
    }

    /// `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`: an integer when it has neither
    /// fraction nor exponent and fits in 64 bits, else a double.
    private mutating func readNumber() throws(Invalid) -> JSONValue {
        let start = offset
        if offset < bytes.count && bytes[offset] == UInt8(ascii: "-") { offset += 1 }
        let integerStart = offset
        guard digits() > 0 else { throw Invalid() }
        if bytes[integerStart] == UInt8(ascii: "0") && offset - integerStart > 1 { throw Invalid() }
        var isInteger = true
        if offset < bytes.count && bytes[offset] == UInt8(ascii: ".") {
            offset += 1
            isInteger = false
            guard digits() > 0 else { throw Invalid() }
        }
        if offset < bytes.count && (bytes[offset] | 0x20) == UInt8(ascii: "e") {
            offset += 1
            isInteger = false
            if offset < bytes.count
                && (bytes[offset] == UInt8(ascii: "+") || bytes[offset] == UInt8(ascii: "-"))
            {
                offset += 1
            }
            guard digits() > 0 else { throw Invalid() }
        }
        let text = String(decoding: bytes[start..<offset], as: UTF8.self)
        if isInteger {
            if let value = Int64(text) { return .integer(value) }
            // Foundation reads an unsigned 64-bit number as such; beyond Int64 it is a double.
        }
        guard let value = Double(text), value.isFinite else { throw Invalid() }
        return .double(value)
    }

    /// Steps over decimal digits and returns how many there were.
    private mutating func digits() -> Int {
        let start = offset
        while offset < bytes.count
            && (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[offset])
        {
            offset += 1
        }
        return offset - start
    }

    /// Checks and steps over a string opening at the next byte.
    private mutating func skipString() throws(Invalid) {
        let (range, hasEscapes) = try scanString()
        if hasEscapes { _ = try Self.unescape(bytes[range]) }
    }

    /// Reads a string opening at the next byte.
    private mutating func readString() throws(Invalid) -> String {
        let (range, hasEscapes) = try scanString()
        guard hasEscapes else { return String(decoding: bytes[range], as: UTF8.self) }
        return String(decoding: try Self.unescape(bytes[range]), as: UTF8.self)
    }

    /// Steps over a string opening at the next byte: the range of its text between the quotes
    /// and whether the text has escapes.
    private mutating func scanString() throws(Invalid) -> (Range<Int>, hasEscapes: Bool) {
        offset += 1
        let start = offset
        var hasEscapes = false
        while offset < bytes.count {
            let byte = bytes[offset]
            if byte == UInt8(ascii: "\"") {
                offset += 1
                return (start..<offset - 1, hasEscapes)
            }
            if byte < 0x20 { throw Invalid() }
            if byte == UInt8(ascii: "\\") {
                hasEscapes = true
                offset += 1
            }
            offset += 1
        }
        throw Invalid()
    }

    /// Decodes the escapes of a string's text.
    private static func unescape(_ text: Slice<UnsafeBufferPointer<UInt8>>) throws(Invalid)
        -> [UInt8]
    {
        var result: [UInt8] = []
        result.reserveCapacity(text.count)
        var index = text.startIndex
        func hex4() throws(Invalid) -> UInt32 {
            guard index + 4 <= text.endIndex else { throw Invalid() }
            var value: UInt32 = 0
            for byte in text[index..<index + 4] {
                let digit: UInt8
                switch byte {
                case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
                case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
                case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
                default: throw Invalid()
                }
                value = value << 4 | UInt32(digit)
            }
            index += 4
            return value
        }
        while index < text.endIndex {
            let byte = text[index]
            index += 1
            guard byte == UInt8(ascii: "\\") else {
                result.append(byte)
                continue
            }
            guard index < text.endIndex else { throw Invalid() }
            let escape = text[index]
            index += 1
            switch escape {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): result.append(escape)
            case UInt8(ascii: "b"): result.append(0x08)
            case UInt8(ascii: "f"): result.append(0x0C)
            case UInt8(ascii: "n"): result.append(0x0A)
            case UInt8(ascii: "r"): result.append(0x0D)
            case UInt8(ascii: "t"): result.append(0x09)
            case UInt8(ascii: "u"):
                var code = try hex4()
                if (0xD800..<0xDC00).contains(code) {
                    guard index + 2 <= text.endIndex, text[index] == UInt8(ascii: "\\"),
                        text[index + 1] == UInt8(ascii: "u")
                    else { throw Invalid() }
                    index += 2
                    let low = try hex4()
                    guard (0xDC00..<0xE000).contains(low) else { throw Invalid() }
                    code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                }
                guard let scalar = Unicode.Scalar(code) else { throw Invalid() }
                result.append(contentsOf: String(Character(scalar)).utf8)
            default:
                throw Invalid()
            }
        }
        return result
    }
}
