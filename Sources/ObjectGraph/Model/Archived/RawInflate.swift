import Foundation

/// Why a raw DEFLATE stream (RFC 1951) could not be inflated; `offset` is the byte of the
/// input where the fault was found.
public struct InflateError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The input byte where the fault was found.
    public var offset: Int
    /// What is wrong.
    public var reason: String

    /// Creates an error.
    public init(offset: Int, reason: String) {
        self.offset = offset
        self.reason = reason
    }

    /// The error in one line.
    public var description: String { "DEFLATE stream, byte \(offset): \(reason)" }
}

/// Inflates a raw DEFLATE stream (RFC 1951, no zlib or gzip header), as Core Data stores its
/// model cache, without trusting it: every read is bounds-checked, every Huffman table is
/// checked to be a valid prefix code, back references may not reach before the output's start,
/// and the output may not grow past `limit` bytes, so a hostile stream costs at most
/// `limit` bytes and time linear in input plus output.
///
/// ```swift
/// let plist = try RawInflate.inflate(compressed, limit: 64 << 20)
/// ```
public enum RawInflate {
    /// The largest output ``inflate(_:limit:)`` produces by default: 256 MiB.
    public static let defaultLimit = 256 << 20

    /// The inflated bytes of `data`.
    /// - Throws: ``InflateError`` for a truncated or malformed stream, or output over `limit`.
    public static func inflate(_ data: Data, limit: Int = defaultLimit) throws(InflateError) -> Data
    {
        var reader = Reader(bytes: [UInt8](data), limit: limit)
        try reader.run()
        return Data(reader.output)
    }

    /// A canonical Huffman code: symbol counts per length and symbols in code order.
    fileprivate struct Huffman {
        var counts = [Int](repeating: 0, count: 16)
        var symbols: [Int] = []

        /// Builds the code of `lengths`; `nil` when the lengths over-subscribe the code, or
        /// (unless `allowsIncomplete`, as for the fixed distance code) leave it incomplete when
        /// more than one symbol is used.
        init?(lengths: [Int], allowsIncomplete: Bool = false) {
            for length in lengths { counts[length] += 1 }
            if counts[0] == lengths.count {
                symbols = []
                return
            }
            var left = 1
            for length in 1..<16 {
                left <<= 1
                left -= counts[length]
                if left < 0 { return nil }
            }
            var offsets = [Int](repeating: 0, count: 16)
            for length in 1..<15 { offsets[length + 1] = offsets[length] + counts[length] }
            symbols = [Int](repeating: 0, count: lengths.count)
            for (symbol, length) in lengths.enumerated() where length != 0 {
                symbols[offsets[length]] = symbol
                offsets[length] += 1
            }
            // An incomplete code is allowed only for a single code of length 1 (RFC 1951 3.2.7).
            if left > 0, !allowsIncomplete, lengths.count - counts[0] != 1 { return nil }
        }
    }

    static let lengthBase = [
        3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115,
        131, 163, 195, 227, 258,
    ]
    static let lengthExtra = [
        0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0,
    ]
    static let distanceBase = [
        1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025, 1537,
        2049, 3073, 4097, 6145, 8193, 12289, 16385, 24577,
    ]
    static let distanceExtra = [
        0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12,
        13,
        13,
    ]
    fileprivate static let codeLengthOrder = [
        16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15,
    ]

    /// The bit reader and the output of one inflation.
    fileprivate struct Reader {
        let bytes: [UInt8]
        let limit: Int
        var output: [UInt8] = []
        var position = 0
        var bitBuffer = 0
        var bitCount = 0

        init(bytes: [UInt8], limit: Int) {
            self.bytes = bytes
            self.limit = limit
        }

        func failure(_ reason: String) -> InflateError {
            InflateError(offset: position, reason: reason)
        }

        mutating func bits(_ count: Int) throws(InflateError) -> Int {
            var value = bitBuffer
            while bitCount < count {
                guard position < bytes.count else { throw failure("the stream ends early") }
                value |= Int(bytes[position]) << bitCount
                position += 1
                bitCount += 8
            }
            bitBuffer = value >> count
            bitCount -= count
            return value & ((1 << count) - 1)
        }

        mutating func run() throws(InflateError) {
            var last = false
            while !last {
                last = try bits(1) == 1
                switch try bits(2) {
                case 0: try stored()
                case 1: try codes(RawInflate.fixedLengths, RawInflate.fixedDistances)
                case 2:
                    let (lengths, distances) = try dynamicTables()
                    try codes(lengths, distances)
                default: throw failure("block type 3 is reserved")
                }
            }
        }

        mutating func append(_ byte: UInt8) throws(InflateError) {
            guard output.count < limit else {
                throw failure("the inflated data grows past \(limit) bytes")
            }
            output.append(byte)
        }

        mutating func stored() throws(InflateError) {
            bitBuffer = 0
            bitCount = 0
            guard position + 4 <= bytes.count else {
                throw failure("a stored block's header is cut off")
            }
            let length = Int(bytes[position]) | Int(bytes[position + 1]) << 8
            let complement = Int(bytes[position + 2]) | Int(bytes[position + 3]) << 8
            guard length == ~complement & 0xFFFF else {
                throw failure("a stored block's length \(length) does not match its complement")
            }
            position += 4
            guard position + length <= bytes.count else {
                throw failure("a stored block is cut off")
            }
            guard output.count + length <= limit else {
                throw failure("the inflated data grows past \(limit) bytes")
            }
            output.append(contentsOf: bytes[position..<(position + length)])
            position += length
        }

        mutating func decode(_ code: Huffman) throws(InflateError) -> Int {
            var value = 0
            var first = 0
            var index = 0
            for length in 1..<16 {
                value |= try bits(1)
                let count = code.counts[length]
                if value - count < first { return code.symbols[index + (value - first)] }
                index += count
                first += count
                first <<= 1
                value <<= 1
            }
            throw failure("a Huffman code that the block's table does not define")
        }

        mutating func codes(_ lengths: Huffman, _ distances: Huffman) throws(InflateError) {
            while true {
                let symbol = try decode(lengths)
                if symbol < 256 {
                    try append(UInt8(symbol))
                    continue
                }
                if symbol == 256 { return }
                let lengthSymbol = symbol - 257
                guard lengthSymbol < RawInflate.lengthBase.count else {
                    throw failure("length code \(symbol) is out of range")
                }
                let length =
                    RawInflate.lengthBase[lengthSymbol]
                    + (try bits(RawInflate.lengthExtra[lengthSymbol]))
                let distanceSymbol = try decode(distances)
                guard distanceSymbol < RawInflate.distanceBase.count else {
                    throw failure("distance code \(distanceSymbol) is out of range")
                }
                let distance =
                    RawInflate.distanceBase[distanceSymbol]
                    + (try bits(RawInflate.distanceExtra[distanceSymbol]))
                guard distance <= output.count else {
                    throw failure("a back reference of \(distance) bytes reaches before the start")
                }
                guard output.count + length <= limit else {
                    throw failure("the inflated data grows past \(limit) bytes")
                }
                var from = output.count - distance
                for _ in 0..<length {
                    output.append(output[from])
                    from += 1
                }
            }
        }

        mutating func dynamicTables() throws(InflateError) -> (Huffman, Huffman) {
            let lengthCount = try bits(5) + 257
            let distanceCount = try bits(5) + 1
            let codeCount = try bits(4) + 4
            guard lengthCount <= 286, distanceCount <= 30 else {
                throw failure("a dynamic block declares too many codes")
            }
            var codeLengths = [Int](repeating: 0, count: 19)
            for index in 0..<codeCount {
                codeLengths[RawInflate.codeLengthOrder[index]] = try bits(3)
            }
            guard let codeLengthCode = Huffman(lengths: codeLengths) else {
                throw failure("a dynamic block's code length code is not a prefix code")
            }
            var lengths: [Int] = []
            let total = lengthCount + distanceCount
            while lengths.count < total {
                let symbol = try decode(codeLengthCode)
                var repeated = 0
                var count = 0
                switch symbol {
                case 0..<16:
                    lengths.append(symbol)
                    continue
                case 16:
                    guard let previous = lengths.last else {
                        throw failure("a repeat code with no length before it")
                    }
                    repeated = previous
                    count = 3 + (try bits(2))
                case 17: count = 3 + (try bits(3))
                default: count = 11 + (try bits(7))
                }
                guard lengths.count + count <= total else {
                    throw failure("a dynamic block's code lengths run past their count")
                }
                lengths.append(contentsOf: repeatElement(repeated, count: count))
            }
            guard lengths[256] != 0 else {
                throw failure("a dynamic block has no end-of-block code")
            }
            guard let literalCode = Huffman(lengths: Array(lengths[0..<lengthCount])),
                let distanceCode = Huffman(lengths: Array(lengths[lengthCount...]))
            else {
                throw failure("a dynamic block's literal or distance code is not a prefix code")
            }
            return (literalCode, distanceCode)
        }
    }

    fileprivate static let fixedLengths: Huffman = {
        var lengths = [Int](repeating: 8, count: 288)
        for symbol in 144..<256 { lengths[symbol] = 9 }
        for symbol in 256..<280 { lengths[symbol] = 7 }
        return Huffman(lengths: lengths) ?? Huffman(empty: ())
    }()

    fileprivate static let fixedDistances: Huffman =
        Huffman(lengths: [Int](repeating: 5, count: 30), allowsIncomplete: true)
        ?? Huffman(empty: ())
}

extension RawInflate.Huffman {
    /// A code with no symbols (never used: the fixed codes are valid).
    fileprivate init(empty: Void) {}
}
