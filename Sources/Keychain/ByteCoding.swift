/// Builds an unambiguous byte string from fields: each is a 4-byte big-endian length followed
/// by its bytes (used for additional authenticated data and the encrypted attributes).
struct ByteWriter {
    private(set) var bytes: [UInt8] = []

    mutating func append(_ field: [UInt8]) {
        let count = UInt32(truncatingIfNeeded: field.count)
        bytes += [
            UInt8(count >> 24), UInt8((count >> 16) & 0xFF), UInt8((count >> 8) & 0xFF),
            UInt8(count & 0xFF),
        ]
        bytes += field
    }

    mutating func append(_ text: String) {
        append(Array(text.utf8))
    }

    mutating func append(_ number: Int64) {
        let value = UInt64(bitPattern: number)
        append((0..<8).map { UInt8((value >> (56 - 8 * UInt64($0))) & 0xFF) })
    }

    mutating func append(_ number: Double) {
        append(Int64(bitPattern: number.bitPattern))
    }

    /// An optional text: a presence byte, then the text when present.
    mutating func append(optional text: String?) {
        if let text {
            append([1])
            append(text)
        } else {
            append([0])
        }
    }
}

/// Reads what ``ByteWriter`` wrote; any malformation is a `.decode` error.
struct ByteReader {
    private let bytes: [UInt8]
    private var offset = 0
    private let what: String

    init(_ bytes: [UInt8], what: String) {
        self.bytes = bytes
        self.what = what
    }

    var isAtEnd: Bool { offset == bytes.count }

    mutating func field() throws -> ArraySlice<UInt8> {
        guard bytes.count - offset >= 4 else { throw malformed() }
        let count =
            Int(bytes[offset]) << 24 | Int(bytes[offset + 1]) << 16 | Int(bytes[offset + 2]) << 8
            | Int(bytes[offset + 3])
        offset += 4
        guard bytes.count - offset >= count else { throw malformed() }
        defer { offset += count }
        return bytes[offset..<offset + count]
    }

    mutating func text() throws -> String {
        let slice = try field()
        guard let text = String(validating: slice, as: UTF8.self) else { throw malformed() }
        return text
    }

    mutating func optionalText() throws -> String? {
        let flag = try field()
        switch Array(flag) {
        case [0]: return nil
        case [1]: return try text()
        default: throw malformed()
        }
    }

    private func malformed() -> KeychainError {
        KeychainError(.decode, "\(what) is malformed")
    }
}
