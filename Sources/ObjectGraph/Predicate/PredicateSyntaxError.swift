/// A predicate format string that does not parse: where, what was expected and what was found.
///
/// ```swift
/// do { _ = try Predicate(format: "age >") } catch let error as PredicateSyntaxError {
///     print(error)
///     // expected an expression but found end of input at offset 5
///     //   age >
///     //        ^
/// }
/// ```
public struct PredicateSyntaxError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The offset of the problem, in Unicode scalars (characters, for ASCII) from the start.
    public let offset: Int
    /// What the parser expected (`"a comparison operator"`).
    public let expected: String
    /// What it found instead (`"'AND'"`, `"end of input"`).
    public let found: String
    /// One line of the source around the offset, then a line with a caret under the offset.
    public let excerpt: String

    /// Creates an error, computing the excerpt from `source`.
    init(source: String, offset: Int, expected: String, found: String) {
        self.offset = offset
        self.expected = expected
        self.found = found
        self.excerpt = Self.makeExcerpt(source, offset: offset)
    }

    /// `expected … but found … at offset N`.
    public var message: String {
        "expected \(expected) but found \(found) at offset \(offset)"
    }

    /// The message, then the excerpt with its caret.
    public var description: String { "\(message)\n\(excerpt)" }

    private static func makeExcerpt(_ source: String, offset: Int) -> String {
        let scalars = Array(source.unicodeScalars)
        let radius = 40
        let lower = max(0, offset - radius)
        let upper = min(scalars.count, offset + radius)
        var line = lower > 0 ? "..." : ""
        for scalar in scalars[lower..<max(lower, upper)] {
            let isControl = scalar.value < 0x20 || scalar.value == 0x7F
            line.unicodeScalars.append(isControl ? " " : scalar)
        }
        let caretColumn = (lower > 0 ? 3 : 0) + (offset - lower)
        if upper < scalars.count { line += "..." }
        return "  " + line + "\n  " + String(repeating: " ", count: caretColumn) + "^"
    }
}
