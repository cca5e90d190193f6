import Foundation

/// A log of the SQL a connection runs: every statement, with the time it took, and as
/// ``Level-swift.enum`` rises the rows it returned or changed and the values bound to it — the
/// `-com.apple.CoreData.SQLDebug` of Core Data.
///
/// ```swift
/// let db = try Database(path: path, options: Database.Options(sqlLog: SQLLog(level: .rowCounts)))
/// try db.execute(sql: "INSERT INTO player (name) VALUES (?)", arguments: ["Ann"])
/// // sql: INSERT INTO player (name) VALUES (?)
/// // annotation: changed 1 row
/// // time: 0.0001s
/// ```
///
/// Each statement is reported once, when it finishes (its last row read, or the statement reset
/// or finalized before that), to the log's ``handler`` (standard error unless set). The time is
/// SQLite's own measurement from the statement's first step to its end, so it includes any time
/// the caller spends between rows.
///
/// At ``Level-swift.enum/boundValues`` the log holds the values bound to every statement:
/// names, e-mail addresses, tokens — whatever the app stores. Do not turn it on where the log
/// may leave the machine or be read by others.
public struct SQLLog: Sendable, Hashable {
    /// How much a log shows for each statement.
    public enum Level: Int, Sendable, Hashable, Comparable, CaseIterable {
        /// The SQL text and the time it took (`OBJECTGRAPH_SQL_DEBUG=1`).
        case statements = 1
        /// Also the rows it returned or changed (`OBJECTGRAPH_SQL_DEBUG=2`).
        case rowCounts = 2
        /// Also the values bound to it, in parameter order (`OBJECTGRAPH_SQL_DEBUG=3`). The
        /// values may be private.
        case boundValues = 3

        /// Orders levels by how much they show.
        public static func < (lhs: Level, rhs: Level) -> Bool {
            lhs.rawValue < rhs.rawValue
        }

        /// The level an environment variable's value asks for: `1`, `2` or `3` (spaces
        /// ignored; a larger number is `3`), or `nil` — no log — for a missing or empty value,
        /// `0`, a negative number or text that is not a number.
        ///
        /// ```swift
        /// SQLLog.Level(environmentValue: "2")    // .rowCounts
        /// SQLLog.Level(environmentValue: "yes")  // nil
        /// ```
        public init?(environmentValue: String?) {
            guard let text = environmentValue?.trimmingCharacters(in: .whitespaces),
                let number = Int(text), number > 0
            else { return nil }
            self = Level(rawValue: min(number, Level.boundValues.rawValue)) ?? .boundValues
        }
    }

    /// The name of the environment variable that turns the log on for every store a process
    /// opens: `OBJECTGRAPH_SQL_DEBUG`.
    public static let environmentVariable = "OBJECTGRAPH_SQL_DEBUG"

    /// How much the log shows.
    public var level: Level
    /// Where each statement's entry goes.
    public var handler: SQLLogHandler

    /// Creates a log at `level` writing to `handler` (standard error by default).
    public init(level: Level, handler: SQLLogHandler = .standardError) {
        self.level = level
        self.handler = handler
    }

    /// The log `environment`'s `OBJECTGRAPH_SQL_DEBUG` asks for (see
    /// ``Level-swift.enum/init(environmentValue:)``), writing to `handler`; `nil` when the
    /// variable is unset or does not ask for a log.
    ///
    /// ```swift
    /// let log = SQLLog.fromEnvironment(["OBJECTGRAPH_SQL_DEBUG": "1"])  // level .statements
    /// ```
    public static func fromEnvironment(
        _ environment: [String: String] = ProcessInfo.processInfo.environment,
        handler: SQLLogHandler = .standardError
    ) -> SQLLog? {
        Level(environmentValue: environment[environmentVariable]).map {
            SQLLog(level: $0, handler: handler)
        }
    }
}
