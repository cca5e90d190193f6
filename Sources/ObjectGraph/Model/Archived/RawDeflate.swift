import Foundation

/// Compresses bytes as a raw DEFLATE stream (RFC 1951, no zlib or gzip header), as Core Data
/// stores its model cache: LZ77 matches (hash chains over a 32 KiB window, lengths 3 to 258)
/// written with the fixed Huffman codes, in one final block; when that would be larger than
/// the input, stored blocks instead. Any input compresses (nothing traps), and
/// ``RawInflate/inflate(_:limit:)`` gives the same bytes back.
///
/// ```swift
/// let compressed = RawDeflate.deflate(plist)
/// try RawInflate.inflate(compressed) == plist   // true
/// ```
public enum RawDeflate {
    /// The bytes of `data` as a raw DEFLATE stream.
    public static func deflate(_ data: Data) -> Data {
        let bytes = [UInt8](data)
        var writer = DeflateBitWriter()
        writer.write(1, count: 1)  // BFINAL
        writer.write(1, count: 2)  // BTYPE 01: fixed Huffman codes
        var matcher = Matcher(bytes: bytes)
        var position = 0
        while position < bytes.count {
            let match = matcher.longestMatch(at: position)
            if match.length >= Matcher.minimumMatch {
                writer.writeLength(match.length)
                writer.writeDistance(match.distance)
                for skipped in position..<(position + match.length) { matcher.insert(skipped) }
                position += match.length
            } else {
                matcher.insert(position)
                writer.writeLiteral(Int(bytes[position]))
                position += 1
            }
        }
        writer.writeLiteral(256)
        writer.flush()
        let storedSize = bytes.count + 5 * max(1, (bytes.count + 65_534) / 65_535)
        return writer.output.count <= storedSize ? Data(writer.output) : stored(bytes)
    }

    /// `bytes` as stored (uncompressed) blocks of at most 65,535 bytes each.
    static func stored(_ bytes: [UInt8]) -> Data {
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count + 5 * (bytes.count / 65_535 + 1))
        var start = 0
        repeat {
            let length = min(65_535, bytes.count - start)
            let isLast = start + length == bytes.count
            output.append(isLast ? 1 : 0)
            output += [
                UInt8(length & 0xFF), UInt8(length >> 8), UInt8(~length & 0xFF),
                UInt8((~length >> 8) & 0xFF),
            ]
            output += bytes[start..<(start + length)]
            start += length
        } while start < bytes.count
        return Data(output)
    }

    /// Finds earlier occurrences of the bytes at a position through chains of positions that
    /// share the hash of their first three bytes.
    private struct Matcher {
        static let minimumMatch = 3
        static let maximumMatch = 258
        static let window = 32_768
        /// Candidates tried per position: bounds the work to linear in the input.
        static let chainLimit = 64
        static let hashBits = 15

        let bytes: [UInt8]
        var head = [Int](repeating: -1, count: 1 << hashBits)
        var previous: [Int]

        init(bytes: [UInt8]) {
            self.bytes = bytes
            previous = [Int](repeating: -1, count: bytes.count)
        }

        func hash(_ position: Int) -> Int {
            let value =
                Int(bytes[position]) << 10 ^ Int(bytes[position + 1]) << 5
                ^ Int(bytes[position + 2])
            return value & ((1 << Self.hashBits) - 1)
        }

        mutating func insert(_ position: Int) {
            guard position + 2 < bytes.count else { return }
            let key = hash(position)
            previous[position] = head[key]
            head[key] = position
        }

        func longestMatch(at position: Int) -> (length: Int, distance: Int) {
            guard position + 2 < bytes.count else { return (0, 0) }
            let limit = min(Self.maximumMatch, bytes.count - position)
            var best = (length: 0, distance: 0)
            var candidate = head[hash(position)]
            var tries = 0
            while candidate >= 0, position - candidate <= Self.window, tries < Self.chainLimit {
                var length = 0
                while length < limit, bytes[candidate + length] == bytes[position + length] {
                    length += 1
                }
                if length > best.length {
                    best = (length, position - candidate)
                    if length == limit { break }
                }
                candidate = previous[candidate]
                tries += 1
            }
            return best
        }
    }
}
