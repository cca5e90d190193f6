/// Why the benchmark stopped.
enum BenchError: Error, CustomStringConvertible {
    /// `--help` was asked for.
    case help
    /// The command line is wrong.
    case usage(String)
    /// A raw sqlite3 call failed: its result code, SQLite's message and the SQL.
    case sqlite(code: Int32, message: String, sql: String)
    /// A child process failed or answered something unreadable.
    case child(String)
    /// The two sides disagree about what they read or wrote.
    case mismatch(String)
    /// Anything else, with what happened.
    case failed(String)

    var description: String {
        switch self {
        case .help: return "help"
        case .usage(let text): return "usage error: \(text)"
        case .sqlite(let code, let message, let sql):
            return "sqlite3 error \(code): \(message) (SQL: \(sql))"
        case .child(let text): return "child process: \(text)"
        case .mismatch(let text): return "the two sides disagree: \(text)"
        case .failed(let text): return text
        }
    }
}
