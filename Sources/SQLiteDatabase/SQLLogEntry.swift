/// What a ``SQLLog`` reports for one statement: its SQL, the time it took and — depending on the
/// log's level — the rows it returned or changed and the values bound to it.
///
/// ``description`` renders it as Core Data's SQL debug log does, one line per item:
///
/// ```
/// sql: SELECT t0."Z_PK", t0."ZNAME" FROM "ZPERSON" AS t0 WHERE t0."ZAGE" > ?
/// bind[1] = 30
/// annotation: fetch returned 12 rows
/// time: 0.0012s
/// ```
public struct SQLLogEntry: Sendable, Hashable, CustomStringConvertible {
    /// The statement's SQL text, with `?` where values are bound.
    public var sql: String
    /// Seconds from the statement's first step to its end, as SQLite measured them.
    public var duration: Double
    /// The level of the log that made the entry.
    public var level: SQLLog.Level
    /// The rows the statement returned (statements with result columns, from
    /// ``SQLLog/Level-swift.enum/rowCounts`` on); `nil` otherwise.
    public var rowsReturned: Int?
    /// The rows the statement inserted, updated or deleted (statements that write, from
    /// ``SQLLog/Level-swift.enum/rowCounts`` on); `nil` otherwise.
    public var rowsChanged: Int?
    /// The values bound to the statement, by parameter position (index 0 is parameter 1;
    /// `NULL` for a parameter left unbound), at ``SQLLog/Level-swift.enum/boundValues``;
    /// `nil` below that level, or for a statement prepared before the log was set.
    public var arguments: [DatabaseValue]?

    /// Creates an entry.
    public init(
        sql: String, duration: Double, level: SQLLog.Level, rowsReturned: Int? = nil,
        rowsChanged: Int? = nil, arguments: [DatabaseValue]? = nil
    ) {
        self.sql = sql
        self.duration = duration
        self.level = level
        self.rowsReturned = rowsReturned
        self.rowsChanged = rowsChanged
        self.arguments = arguments
    }

    /// The longest rendering of a bound text or blob value in ``lines``, in characters.
    static let valueLimit = 200

    /// The entry's lines: `sql: …`, then `bind[N] = value` per bound value, `annotation: …`
    /// for row counts, and `time: …s`. Long text and blob values are cut, with their length.
    public var lines: [String] {
        var lines = ["sql: " + sql]
        for (index, value) in (arguments ?? []).enumerated() {
            lines.append("bind[\(index + 1)] = " + Self.render(value))
        }
        if let rowsReturned {
            lines.append("annotation: fetch returned \(Self.rows(rowsReturned))")
        }
        if let rowsChanged {
            lines.append("annotation: changed \(Self.rows(rowsChanged))")
        }
        lines.append("time: " + Self.seconds(duration))
        return lines
    }

    /// ``lines``, joined with newlines.
    public var description: String {
        lines.joined(separator: "\n")
    }

    private static func rows(_ count: Int) -> String {
        count == 1 ? "1 row" : "\(count) rows"
    }

    /// Seconds with four decimals (`0.0012s`), as Core Data prints them.
    static func seconds(_ value: Double) -> String {
        let tenThousandths = Int((max(0, value) * 10_000).rounded())
        let fraction = String(tenThousandths % 10_000)
        return "\(tenThousandths / 10_000)."
            + String(repeating: "0", count: 4 - fraction.count) + fraction + "s"
    }

    /// `value` as its SQL-like description, a long text or blob cut with its length.
    private static func render(_ value: DatabaseValue) -> String {
        let text = value.description
        guard text.count > valueLimit else { return text }
        let length: String
        switch value {
        case .blob(let bytes): length = "\(bytes.count) bytes"
        case .text(let string): length = "\(string.count) characters"
        default: return text
        }
        return String(text.prefix(valueLimit)) + "… (\(length))"
    }
}
