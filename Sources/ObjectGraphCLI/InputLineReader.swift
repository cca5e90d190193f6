import Foundation

/// Reads lines from a file descriptor (standard input) with a bound on how much of a line is
/// kept: a longer line is read to its end but not stored, and comes back as
/// ``InputLine/tooLong(bytes:)``. Read errors are thrown, never taken for the end of input.
///
/// ```swift
/// let reader = InputLineReader(fileDescriptor: STDIN_FILENO)
/// while let line = try reader.next(maximumBytes: 1 << 20) { … }
/// ```
final class InputLineReader {
    private let fileDescriptor: Int32
    private let name: String
    private var buffer = [UInt8](repeating: 0, count: 64 * 1024)
    private var start = 0
    private var end = 0
    private var atEnd = false

    /// A reader of `fileDescriptor`, called `name` in errors.
    init(fileDescriptor: Int32, name: String = "standard input") {
        self.fileDescriptor = fileDescriptor
        self.name = name
    }

    /// The next line without its newline (`\n` or `\r\n`), or `nil` at the end of input. A line
    /// of more than `maximumBytes` bytes is `.tooLong` with its full size.
    /// - Throws: ``InputReadError`` when reading fails (for example, the input is a folder).
    func next(maximumBytes: Int) throws(InputReadError) -> InputLine? {
        var line: [UInt8] = []
        var size = 0
        var sawInput = false
        while true {
            if start == end {
                guard try fill() else { break }
            }
            sawInput = true
            let newline = buffer[start..<end].firstIndex(of: UInt8(ascii: "\n"))
            let stop = newline ?? end
            let count = stop - start
            if size <= maximumBytes {
                if size + count <= maximumBytes {
                    line.append(contentsOf: buffer[start..<stop])
                } else {
                    line = []
                }
            }
            size += count
            start = newline.map { $0 + 1 } ?? end
            if newline != nil { break }
        }
        guard sawInput else { return nil }
        guard size <= maximumBytes else { return .tooLong(bytes: size) }
        if line.last == UInt8(ascii: "\r") { line.removeLast() }
        return .line(String(decoding: line, as: UTF8.self))
    }

    /// Reads the next block into the buffer; `false` at the end of input.
    private func fill() throws(InputReadError) -> Bool {
        guard !atEnd else { return false }
        while true {
            let count = buffer.withUnsafeMutableBytes {
                read(fileDescriptor, $0.baseAddress, $0.count)
            }
            if count > 0 {
                start = 0
                end = count
                return true
            }
            if count == 0 {
                atEnd = true
                return false
            }
            if errno == EINTR { continue }
            throw InputReadError(name: name, code: errno)
        }
    }
}
