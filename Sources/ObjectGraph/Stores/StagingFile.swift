import Archive
import Foundation

/// A store file being written beside the file it will become, moved into place only when
/// complete: Archive's ``StagedFile`` (named `.<name>.tmp-<pid>-XXXXXX`, held under `flock`
/// while its writer lives, left-overs of killed writers removed by ``removeStale(beside:)``)
/// with SQLite's `-journal`, `-wal` and `-shm` as its companions and the stores' errors.
///
/// Dropping a staging file that was not installed removes it (with SQLite's files beside it).
final class StagingFile {
    /// Files SQLite keeps beside a database, by suffix.
    static let sqliteCompanions = ["-journal", "-wal", "-shm"]

    /// The file being written.
    private let staged: StagedFile

    /// The staging file's path.
    var path: String { staged.path }
    /// The file it becomes.
    var destination: URL { staged.destination }
    /// The open descriptor holding the lock (`-1` once installed or discarded).
    var descriptor: Int32 { staged.descriptor }

    /// Creates an empty staging file for `destination` (with the permissions of the file it
    /// replaces, else 0644), locked.
    /// - Throws: ``StoreError/cannotWrite(path:reason:)`` naming `destination` when the folder
    ///   refuses a new file.
    init(for destination: URL) throws {
        do {
            staged = try StagedFile(for: destination, companions: Self.sqliteCompanions)
        } catch {
            throw Self.storeError(error)
        }
    }

    /// Flushes the file's contents to disk (whoever wrote them, through any descriptor).
    /// - Throws: ``StoreError/cannotWrite(path:reason:)``.
    func synchronize() throws {
        do { try staged.synchronize() } catch { throw Self.storeError(error) }
    }

    /// Moves the file into place as ``destination``, flushes the folder and releases the lock.
    /// With `replacing` false an existing destination is never replaced, even one created a
    /// moment ago by another process.
    /// - Throws: ``ObjectGraphError/fileExists(path:)`` when `replacing` is false and the
    ///   destination exists; ``StoreError/cannotWrite(path:reason:)`` when the move fails. The
    ///   staging file is then still there (``discard()`` removes it).
    func install(replacing: Bool) throws {
        do { try staged.install(replacing: replacing) } catch { throw Self.storeError(error) }
    }

    /// Removes the staging file and SQLite's files beside it, and releases the lock.
    func discard() {
        staged.discard()
    }

    /// Removes the staging files of `destination` that no living writer holds, with SQLite's
    /// files beside them (``StagedFile/removeStale(beside:companions:)``).
    static func removeStale(beside destination: URL) {
        StagedFile.removeStale(beside: destination, companions: sqliteCompanions)
    }

    /// The system's message for the current `errno`.
    static func errnoText() -> String {
        StagedFile.errnoText()
    }

    /// The stores' error for `failure`: ``ObjectGraphError/fileExists(path:)`` or
    /// ``StoreError/cannotWrite(path:reason:)``.
    static func storeError(_ failure: StagingFailure) -> any Error {
        failure.destinationExists
            ? ObjectGraphError.fileExists(path: failure.path)
            : StoreError.cannotWrite(path: failure.path, reason: failure.reason)
    }
}
