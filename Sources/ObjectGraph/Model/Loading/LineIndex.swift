import Foundation

/// The start offset of every line of a file, to turn offsets and tags into line and column.
struct LineIndex: Sendable {
    private let data: Data
    private let starts: [Int]

    init(_ data: Data) {
        self.data = data
        var starts = [0]
        data.withUnsafeBytes { (buffer: UnsafeRawBufferPointer) in
            guard let base = buffer.baseAddress else { return }
            // memchr jumps from newline to newline: a 40 MB line costs one call, not 40 M steps.
            var offset = 0
            while offset < buffer.count,
                let found = memchr(base + offset, 0x0A, buffer.count - offset)
            {
                let newline = base.distance(to: UnsafeRawPointer(found))
                starts.append(newline + 1)
                offset = newline + 1
            }
        }
        self.starts = starts
    }

    /// The 1-based line and column of byte `offset`.
    func location(ofOffset offset: Int, file: String?) -> SourceLocation {
        var low = 0
        var high = starts.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if starts[middle] <= offset { low = middle } else { high = middle - 1 }
        }
        return SourceLocation(file: file, line: low + 1, column: offset - starts[low] + 1)
    }

    /// Where the start tag `<name` is, given the line libxml2 reports for the element (the line
    /// on which its start tag ends). Searches that line, then up to 50 lines before it.
    func location(ofTag name: String, endingOnLine line: Int, file: String?) -> SourceLocation {
        guard line >= 1, line <= starts.count else {
            return SourceLocation(file: file, line: max(line, 1), column: 1)
        }
        let needle = Array(("<" + name).utf8)
        var current = line
        while current >= 1, current > line - 50 {
            if let column = column(of: needle, onLine: current) {
                return SourceLocation(file: file, line: current, column: column)
            }
            current -= 1
        }
        return SourceLocation(file: file, line: line, column: 1)
    }

    private func column(of needle: [UInt8], onLine line: Int) -> Int? {
        let start = starts[line - 1]
        let end = line < starts.count ? starts[line] : data.count
        guard end - start >= needle.count else { return nil }
        return data.withUnsafeBytes { (buffer: UnsafeRawBufferPointer) -> Int? in
            var index = start
            while index + needle.count <= end {
                var match = true
                for k in 0..<needle.count where buffer[index + k] != needle[k] {
                    match = false
                    break
                }
                if match {
                    let after = index + needle.count
                    let boundary = after >= end || !Self.isNameByte(buffer[after])
                    if boundary { return index - start + 1 }
                }
                index += 1
            }
            return nil
        }
    }

    private static func isNameByte(_ byte: UInt8) -> Bool {
        (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A)
            || (byte >= 0x61 && byte <= 0x7A) || byte == 0x5F || byte == 0x2D || byte == 0x3A
            || byte == 0x2E || byte >= 0x80
    }
}
