/// The bit writer of ``RawDeflate`` (tests hand-build DEFLATE streams with it too): bits least
/// significant first, and the fixed Huffman codes most significant bit first, as RFC 1951 packs
/// them.
struct DeflateBitWriter {
    var output: [UInt8] = []
    var buffer = 0
    var count = 0

    mutating func write(_ value: Int, count bits: Int) {
        buffer |= value << count
        count += bits
        while count >= 8 {
            output.append(UInt8(buffer & 0xFF))
            buffer >>= 8
            count -= 8
        }
    }

    mutating func flush() {
        if count > 0 { output.append(UInt8(buffer & 0xFF)) }
        buffer = 0
        count = 0
    }

    /// `code` of `length` bits, most significant bit first.
    mutating func writeCode(_ code: Int, length: Int) {
        var reversed = 0
        for bit in 0..<length { reversed |= ((code >> bit) & 1) << (length - 1 - bit) }
        write(reversed, count: length)
    }

    /// A literal/length symbol (0...287) in the fixed code.
    mutating func writeLiteral(_ symbol: Int) {
        switch symbol {
        case 0..<144: writeCode(0x30 + symbol, length: 8)
        case 144..<256: writeCode(0x190 + symbol - 144, length: 9)
        case 256..<280: writeCode(symbol - 256, length: 7)
        default: writeCode(0xC0 + symbol - 280, length: 8)
        }
    }

    mutating func writeLength(_ length: Int) {
        var index = RawInflate.lengthBase.count - 1
        while index > 0, RawInflate.lengthBase[index] > length { index -= 1 }
        writeLiteral(257 + index)
        write(length - RawInflate.lengthBase[index], count: RawInflate.lengthExtra[index])
    }

    mutating func writeDistance(_ distance: Int) {
        var index = RawInflate.distanceBase.count - 1
        while index > 0, RawInflate.distanceBase[index] > distance { index -= 1 }
        writeCode(index, length: 5)
        write(
            distance - RawInflate.distanceBase[index], count: RawInflate.distanceExtra[index])
    }
}
