/// A transaction isolation level of PostgreSQL (see
/// ``PostgresConnection/transaction(isolation:_:)``).
public enum PostgresIsolation: Sendable, Hashable {
    /// `READ COMMITTED`, the server's default: each statement sees the rows committed before
    /// it began.
    case readCommitted
    /// `REPEATABLE READ`: every statement sees one snapshot, from the transaction's first;
    /// a row another transaction changed meanwhile makes a write fail (SQLSTATE 40001).
    case repeatableRead
    /// `SERIALIZABLE`: as `REPEATABLE READ`, and the transactions commit as if one after
    /// the other.
    case serializable

    /// The level as SQL (`REPEATABLE READ`).
    var sql: String {
        switch self {
        case .readCommitted: return "READ COMMITTED"
        case .repeatableRead: return "REPEATABLE READ"
        case .serializable: return "SERIALIZABLE"
        }
    }
}
