import Foundation
import Synchronization

/// What a PostgreSQL store needs to publish its saves and hear other stores' (see
/// `PostgresStore+RemoteChanges.swift` and `PostgresStore+History.swift`): whether it records
/// history, the channel its schema's saves are announced on, the identity of this store object
/// (shared by its save writers) among the processes and coordinators sharing the schema, and
/// the count of other writers' saves heard.
///
/// Sendable parts only: the mark is read under the coordinator's lock and raised on the
/// listener's thread; save writers read the rest on their own threads.
final class PostgresPublishing: Sendable {
    /// Whether saves are recorded in the history tables (``StoreOptions/tracksHistory`` on a
    /// writable store). Set once, while the store opens.
    let tracksHistory: Atomic<Bool>
    /// How many `ZTOMBSTONEn` columns `ACHANGE` has (set when the history tables are made).
    let tombstoneColumns = Atomic<Int>(0)
    /// This store object's name in the payloads of its notifications (random, per store
    /// object): a store hears its own saves too, and leaves them out by this name.
    let sender: String = UUID().uuidString.lowercased()
    /// The `LISTEN`/`NOTIFY` channel of the schema.
    let channel: String
    /// How many saves of other store objects were heard (plus one per reconnection of the
    /// listener, after which anything may have changed): the store's remote change mark.
    let heard = Atomic<Int64>(0)

    /// The state of a store on schema `schema`.
    init(schema: String) {
        tracksHistory = Atomic(false)
        channel = Self.channel(forSchema: schema)
    }

    /// `objectgraph:<schema>` when that fits PostgreSQL's 63-byte names, else the schema's
    /// first bytes and a hash of the whole name.
    static func channel(forSchema schema: String) -> String {
        let plain = "objectgraph:" + schema
        guard plain.utf8.count > 63 else { return plain }
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325  // FNV-1a
        for byte in schema.utf8 {
            hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3
        }
        let prefix = String(decoding: schema.utf8.prefix(28), as: UTF8.self)
        return "objectgraph:" + prefix + ":" + String(hash, radix: 16)
    }

    /// The payload announcing a save: `<sender> <store UUID>:<transaction>` (transaction 0
    /// when the save recorded no history).
    func payload(storeIdentifier: String, transaction: Int64) -> String {
        "\(sender) \(storeIdentifier):\(transaction)"
    }

    /// Whether `payload` announces a save of another store object (not this one's, and in
    /// the form ``payload(storeIdentifier:transaction:)`` writes).
    func isOthers(_ payload: String) -> Bool {
        guard let space = payload.firstIndex(of: " ") else { return false }
        return payload[..<space] != sender
    }
}
