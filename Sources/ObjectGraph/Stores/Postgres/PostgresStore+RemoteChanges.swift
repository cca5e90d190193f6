import Foundation
import PostgresClient

/// How a PostgreSQL store hears that another process, machine or coordinator saved to its
/// schema: every save sends `NOTIFY` on the schema's channel (`PostgresStore+Publishing.swift`)
/// with `<sender> <store UUID>:<transaction>`; the store's listener (``PostgresListener``: a
/// connection of its own, waiting on its socket) counts the saves of other senders and calls
/// the coordinator's `onActivity`, which reads the count (the mark) and posts the change. A
/// context merging remote changes then reads the history after its token (or compares rows
/// when the store keeps no history).
///
/// A listener that lost its connection connects again and counts that as a change: the
/// notifications sent meanwhile are gone, but the history after the contexts' tokens is not
/// (catch-up by token).
extension PostgresStore: RemoteChangeDetectingStore {
    /// Writable stores only, as SQLite's.
    var remoteChangeDetecting: (any RemoteChangeDetectingStore)? {
        description.isReadOnly ? nil : self
    }

    /// The count of other senders' saves heard, plus reconnections.
    func remoteChangeMark() throws -> Int64 { publishing.heard.load(ordering: .relaxed) }

    /// Starts the store's listener on the schema's channel (connected and listening when
    /// this returns).
    /// - Throws: ``StoreError/cannotOpen(path:reason:)`` when the listening connection
    ///   cannot be made.
    func watchFile(onActivity: @escaping @Sendable () -> Void) throws -> any StoreFileWatch {
        let publishing = publishing
        do {
            let listener = try PostgresListener(
                url: connection.url, channel: publishing.channel,
                onNotification: { notification in
                    guard publishing.isOthers(notification.payload) else { return }
                    publishing.heard.add(1, ordering: .relaxed)
                    onActivity()
                },
                onConnect: { reconnected in
                    guard reconnected else { return }
                    publishing.heard.add(1, ordering: .relaxed)
                    onActivity()
                })
            return PostgresStoreWatch(listener: listener)
        } catch {
            throw StoreError.cannotOpen(
                path: path, reason: "cannot listen for other writers' saves: \(error)")
        }
    }
}

/// A PostgreSQL store's running listener, as the coordinator keeps it.
final class PostgresStoreWatch: StoreFileWatch {
    /// The listener (for tests: its connection's server process, its reconnections).
    let listener: PostgresListener

    init(listener: PostgresListener) { self.listener = listener }

    func stop() { listener.stop() }
}
