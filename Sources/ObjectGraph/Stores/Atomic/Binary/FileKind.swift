/// Names the format of a file from its first bytes, for errors about a file given as the wrong
/// store type.
enum FileKind {
    /// `a SQLite database`, `an XML file`, or the first bytes in hex.
    static func describe(_ bytes: UnsafeRawBufferPointer) -> String {
        let head = Array(bytes.prefix(16))
        if head.starts(with: Array("SQLite format 3\u{0}".utf8)) {
            return "it is a SQLite database (open it as a SQLite store)"
        }
        var text = head[...]
        if text.starts(with: [0xEF, 0xBB, 0xBF]) { text = text.dropFirst(3) }
        while let first = text.first,
            first == 0x20 || first == 0x0A || first == 0x0D || first == 0x09
        {
            text = text.dropFirst()
        }
        if text.starts(with: Array("<?xml".utf8)) || text.first == UInt8(ascii: "<") {
            return "it is an XML file (open it as an XML store)"
        }
        if head.starts(with: Array("bplist".utf8)) { return "it is a binary property list" }
        return "it starts with bytes " + hex(head)
    }

    /// Bytes as hex, e.g. `53 51 4C 69`.
    static func printable(_ bytes: UnsafeRawBufferPointer) -> String {
        hex(Array(bytes))
    }

    /// The first eight bytes as hex.
    static func hex(_ bytes: [UInt8]) -> String {
        bytes.prefix(8).map { byte in
            let digits = String(byte, radix: 16, uppercase: true)
            return digits.count == 1 ? "0" + digits : digits
        }.joined(separator: " ")
    }
}
