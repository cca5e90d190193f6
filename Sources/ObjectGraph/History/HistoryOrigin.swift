import Foundation

/// Who makes a change the stores record in their history: the saving context's author and
/// name, and (the same for the whole process) its bundle identifier and process name.
struct HistoryOrigin: Sendable, Hashable {
    /// ``ManagedContext/transactionAuthor``.
    var author: String?
    /// ``ManagedContext/name``.
    var contextName: String?

    /// The process's bundle identifier; its process name when it has none (as on Linux).
    static let bundleID: String =
        Bundle.main.bundleIdentifier ?? ProcessInfo.processInfo.processName
    /// The process's name, which Core Data records as the process ID.
    static let processID: String = ProcessInfo.processInfo.processName
}
