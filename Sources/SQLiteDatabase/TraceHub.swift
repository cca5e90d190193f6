import CSQLite

/// The one SQLite trace callback of a connection (`sqlite3_trace_v2` takes one), shared by the
/// SQL observer of ``Database/trace(_:)`` and the ``SQLLog``. It exists only while one of them
/// is set: a connection without it pays nothing (SQLite checks its trace mask on every step
/// anyway).
///
/// Owned by the ``Connection``, which outlives every statement, so SQLite never calls it after
/// it is gone; the connection unregisters it before closing. Used only from the connection's
/// isolation domain (SQLite calls it synchronously, inside a step, reset or finalize).
final class TraceHub {
    /// The function given to ``Database/trace(_:)``.
    var observer: ((String) -> Void)?
    /// The SQL log.
    var log: SQLLog?

    /// What a log entry needs from a statement's start: the rows read so far and the
    /// connection's total changes when it started.
    private struct Run {
        var rows = 0
        var totalChangesAtStart: Int64
    }

    /// Runs started and not yet reported, by statement handle (from level 2 on).
    private var runs: [OpaquePointer: Run] = [:]

    /// The live statements of the connection prepared while the hub exists, by handle, so that
    /// the log can show their bound values. Unretained: a statement removes itself before it
    /// is finalized.
    private var statements: [OpaquePointer: Unmanaged<Statement>] = [:]

    /// Whether neither an observer nor a log is set.
    var isEmpty: Bool { observer == nil && log == nil }

    /// The events SQLite must report for what is set.
    var mask: UInt32 {
        var mask: Int32 = 0
        if observer != nil { mask |= SQLITE_TRACE_STMT }
        if let log {
            mask |= SQLITE_TRACE_PROFILE
            if log.level >= .rowCounts { mask |= SQLITE_TRACE_STMT | SQLITE_TRACE_ROW }
        }
        return UInt32(mask)
    }

    /// Registers the hub on `handle` for ``mask``'s events (none: unregisters).
    func install(on handle: OpaquePointer) -> Int32 {
        if isEmpty { runs = [:] }
        let mask = self.mask
        guard mask != 0 else { return sqlite3_trace_v2(handle, 0, nil, nil) }
        return sqlite3_trace_v2(
            handle, mask,
            { event, context, statement, detail in
                guard let context, let statement else { return 0 }
                Unmanaged<TraceHub>.fromOpaque(context).takeUnretainedValue().receive(
                    event: event, statement: OpaquePointer(statement), detail: detail)
                return 0
            },
            Unmanaged.passUnretained(self).toOpaque())
    }

    /// Remembers `statement`, so that its bound values can be logged.
    func register(_ statement: Statement) {
        statements[statement.handle] = Unmanaged.passUnretained(statement)
    }

    /// Forgets the statement of `handle`, about to be finalized.
    func forget(_ handle: OpaquePointer) {
        statements[handle] = nil
    }

    private func receive(event: UInt32, statement: OpaquePointer, detail: UnsafeMutableRawPointer?)
    {
        switch Int32(bitPattern: event) {
        case SQLITE_TRACE_STMT:
            // For a trigger's program SQLite passes a "-- trigger name" comment instead of the
            // statement's text: the statement itself was reported already.
            if let text = detail?.assumingMemoryBound(to: CChar.self), text[0] == 0x2D,
                text[1] == 0x2D
            {
                return
            }
            if let observer, let sql = sqlite3_sql(statement) {
                observer(String(cString: sql))
            }
            if let log, log.level >= .rowCounts {
                runs[statement] = Run(
                    totalChangesAtStart: sqlite3_total_changes64(sqlite3_db_handle(statement)))
            }
        case SQLITE_TRACE_ROW:
            runs[statement]?.rows += 1
        case SQLITE_TRACE_PROFILE:
            guard let log else { return }
            let nanoseconds = detail?.assumingMemoryBound(to: Int64.self).pointee ?? 0
            let run = runs.removeValue(forKey: statement)
            log.handler(entry(statement, log: log, nanoseconds: nanoseconds, run: run))
        default:
            return
        }
    }

    /// The log entry of a finished run of `statement`.
    private func entry(_ statement: OpaquePointer, log: SQLLog, nanoseconds: Int64, run: Run?)
        -> SQLLogEntry
    {
        let sql = sqlite3_sql(statement).map { String(cString: $0) } ?? ""
        var entry = SQLLogEntry(sql: sql, duration: Double(nanoseconds) / 1e9, level: log.level)
        if log.level >= .rowCounts, let run {
            if sqlite3_column_count(statement) > 0 { entry.rowsReturned = run.rows }
            if sqlite3_stmt_readonly(statement) == 0 {
                let total = sqlite3_total_changes64(sqlite3_db_handle(statement))
                entry.rowsChanged = Int(total - run.totalChangesAtStart)
            }
        }
        if log.level >= .boundValues, let known = statements[statement] {
            entry.arguments = known.takeUnretainedValue().boundValuesForLog
        }
        return entry
    }
}
