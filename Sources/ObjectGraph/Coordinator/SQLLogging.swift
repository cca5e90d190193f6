import Foundation
import SQLiteDatabase

/// The SQL log of a SQLite store (see ``StoreOptions/sqlDebugLevel``).
public typealias SQLLog = SQLiteDatabase.SQLLog
/// Where a SQL log's entries go (standard error unless set).
public typealias SQLLogHandler = SQLiteDatabase.SQLLogHandler
/// One statement of a SQL log.
public typealias SQLLogEntry = SQLiteDatabase.SQLLogEntry
/// SQLite's plan for a query (see ``FetchExplanation``).
public typealias QueryPlan = SQLiteDatabase.QueryPlan

extension StoreOptions {
    /// The SQL log a SQLite store opened with these options keeps: at ``sqlDebugLevel``
    /// when set (`0` or less: none), otherwise at the level `environment`'s
    /// `OBJECTGRAPH_SQL_DEBUG` asks for (`1`, `2` or `3`); entries go to ``sqlLogHandler``.
    ///
    /// ```swift
    /// StoreOptions().sqlLog(environment: ["OBJECTGRAPH_SQL_DEBUG": "2"])?.level  // .rowCounts
    /// ```
    public func sqlLog(environment: [String: String] = ProcessInfo.processInfo.environment)
        -> SQLLog?
    {
        let value = sqlDebugLevel.map(String.init) ?? environment[SQLLog.environmentVariable]
        return SQLLog.Level(environmentValue: value).map {
            SQLLog(level: $0, handler: sqlLogHandler)
        }
    }
}
