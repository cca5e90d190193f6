/// Where an object stands in a fetched-results controller's results: its section and its row
/// within that section (UIKit's `IndexPath(row:section:)`, as a plain value that never traps).
///
/// ```swift
/// let first = try controller.object(at: ResultsIndexPath(row: 0, section: 0))
/// ```
public struct ResultsIndexPath: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The row within the section, from 0.
    public var row: Int
    /// The section, from 0.
    public var section: Int

    /// Creates an index path.
    public init(row: Int, section: Int) {
        self.row = row
        self.section = section
    }

    /// Orders by section, then row.
    public static func < (lhs: ResultsIndexPath, rhs: ResultsIndexPath) -> Bool {
        (lhs.section, lhs.row) < (rhs.section, rhs.row)
    }

    /// `[section, row]`, as Foundation prints an index path.
    public var description: String { "[\(section), \(row)]" }
}
