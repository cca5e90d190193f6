import Foundation

/// Where a command reads its input and writes its output: the terminal, or buffers in tests.
public protocol CommandIO: AnyObject {
    /// Writes `text` to standard output as is (add your own newline).
    func write(_ text: String)
    /// Writes `text` to standard error as is (add your own newline).
    func writeError(_ text: String)
    /// Reads one line of standard input without its newline; `nil` at end of input.
    func readLine() -> String?
    /// Reads one line of standard input, keeping at most `maximumBytes` of it; `nil` at end of
    /// input. A read error is thrown, not taken for the end.
    func readLine(maximumBytes: Int) throws(InputReadError) -> InputLine?
    /// Flushes standard output (after each line of a streaming protocol).
    func flush()
    /// The environment variables the command sees.
    var environment: [String: String] { get }
}

/// The process's own standard input, output and error.
public final class StandardIO: CommandIO {
    /// Creates the terminal I/O.
    public init() {}

    /// Writes to standard output.
    public func write(_ text: String) {
        FileHandle.standardOutput.write(Data(text.utf8))
    }

    /// Writes to standard error.
    public func writeError(_ text: String) {
        FileHandle.standardError.write(Data(text.utf8))
    }

    /// Reads a line from standard input; a read error ends the input.
    public func readLine() -> String? {
        guard case .line(let text) = try? reader.next(maximumBytes: .max) else { return nil }
        return text
    }

    /// Reads a line from standard input, keeping at most `maximumBytes` of it.
    public func readLine(maximumBytes: Int) throws(InputReadError) -> InputLine? {
        try reader.next(maximumBytes: maximumBytes)
    }

    private let reader = InputLineReader(fileDescriptor: STDIN_FILENO)

    /// Nothing to do: writes go straight to the file descriptor.
    public func flush() {}

    /// The process environment.
    public var environment: [String: String] { ProcessInfo.processInfo.environment }
}

/// In-memory I/O for tests: give it input lines, read back what the command wrote.
public final class BufferIO: CommandIO {
    /// Everything written to standard output.
    public private(set) var output = ""
    /// Everything written to standard error.
    public private(set) var errorOutput = ""
    /// The environment the command sees.
    public var environment: [String: String]
    private var input: [String]

    /// Creates buffers with the given standard input lines and environment.
    public init(input: [String] = [], environment: [String: String] = [:]) {
        self.input = input.reversed()
        self.environment = environment
    }

    /// Appends to ``output``.
    public func write(_ text: String) { output += text }
    /// Appends to ``errorOutput``.
    public func writeError(_ text: String) { errorOutput += text }
    /// Pops the next input line.
    public func readLine() -> String? { input.popLast() }
    /// Nothing to do.
    public func flush() {}
}
