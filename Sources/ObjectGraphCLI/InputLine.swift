import Foundation

/// One line read by ``InputLineReader`` or ``CommandIO/readLine(maximumBytes:)``.
public enum InputLine: Sendable, Equatable {
    /// The line's text, without its newline.
    case line(String)
    /// A line longer than the limit: its size in bytes (without the newline); its text was
    /// not kept.
    case tooLong(bytes: Int)
}

extension CommandIO {
    /// Reads a line with ``readLine()``; a line over `maximumBytes` is `.tooLong`. In-memory
    /// inputs never fail to read.
    public func readLine(maximumBytes: Int) throws(InputReadError) -> InputLine? {
        guard let line = readLine() else { return nil }
        let size = line.utf8.count
        return size > maximumBytes ? .tooLong(bytes: size) : .line(line)
    }
}
