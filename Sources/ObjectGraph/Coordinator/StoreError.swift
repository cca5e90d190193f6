/// Why a store could not be opened, read or written. Every case names the store's file (a store
/// without one, in memory, by its identifier) and says which operation failed.
///
/// ```swift
/// do { try coordinator.addStore(type: .sqlite, at: url) }
/// catch let error as StoreError { print(error) }
/// // /data/School.sqlite: the store does not match the model: changed Student
/// ```
public enum StoreError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The file could not be opened (missing, not a database, no permission).
    case cannotOpen(path: String, reason: String)
    /// The store was written with another model: the entities whose hashes differ.
    case incompatibleModel(path: String, compatibility: ModelCompatibility)
    /// The store's metadata is missing or unreadable.
    case corruptMetadata(path: String, reason: String)
    /// A save was attempted on a store opened read-only.
    case readOnly(path: String)
    /// SQLite failed; the message includes SQLite's and the SQL (never the values).
    case sqlite(path: String, message: String)
    /// Another process replaced the file since this store read it; saving would overwrite its
    /// changes.
    case fileChanged(path: String)
    /// A constraint of the file rejected values (SQLite's message, with the SQL).
    case constraintConflict(path: String, message: String)
    /// The unique index of a model's uniqueness constraint rejected values: another writer
    /// (another coordinator, another process) saved them first. A context's save catches it,
    /// reads the stored holder and resolves the collision by its merge policy
    /// (``SaveError/constraintConflicts(_:)`` under ``MergePolicy/error``).
    case uniqueConstraint(path: String, entity: String, properties: [String])
    /// The store could not be written (a value or row the file format cannot hold, or the file
    /// system refused); nothing of the save was written.
    case cannotWrite(path: String, reason: String)
    /// The file is damaged (truncated, bytes changed): the section and byte offset where
    /// reading stopped, and why. Nothing of the file was loaded.
    case corruptFile(path: String, section: String, offset: Int, reason: String)
    /// A query generation was asked of a SQLite store whose file is not in WAL mode (the
    /// journal mode it has instead): only WAL lets a reader keep a snapshot while others
    /// write, as in Core Data.
    case queryGenerationsNeedWAL(path: String, journalMode: String)
    /// PostgreSQL failed: the store's URL (its password replaced by `***`) and the server's
    /// SQLSTATE, message and SQL (never the values).
    case postgres(url: String, message: String)

    /// `path: what went wrong`.
    public var description: String {
        switch self {
        case .cannotOpen(let path, let reason): return "\(path): cannot open the store: \(reason)"
        case .incompatibleModel(let path, let compatibility): return "\(path): \(compatibility)"
        case .corruptMetadata(let path, let reason):
            return "\(path): the store's metadata is unreadable: \(reason)"
        case .readOnly(let path): return "\(path): the store is open read-only"
        case .sqlite(let path, let message): return "\(path): \(message)"
        case .fileChanged(let path):
            return "\(path): the file was changed by another process since it was read; "
                + "the save was not written (reopen the store and try again)"
        case .constraintConflict(let path, let message):
            return "\(path): a uniqueness constraint rejected the save: \(message)"
        case .uniqueConstraint(let path, let entity, let properties):
            return "\(path): the uniqueness constraint \(entity) ("
                + properties.joined(separator: ", ") + ") rejected the save: another "
                + "writer saved the same values first"
        case .cannotWrite(let path, let reason):
            return "\(path): cannot write the store: \(reason)"
        case .queryGenerationsNeedWAL(let path, let journalMode):
            return "\(path): query generations need the WAL journal mode; the store is in"
                + " \(journalMode) mode"
        case .postgres(let url, let message): return "\(url): \(message)"
        case .corruptFile(let path, let section, let offset, let reason):
            return "\(path): the file is damaged: \(section) section, byte \(offset): \(reason)"
        }
    }
}
