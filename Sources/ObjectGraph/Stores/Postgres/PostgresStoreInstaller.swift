import Foundation
import PostgresClient

/// Puts a whole store into its PostgreSQL schema in one transaction: the store is first written
/// by an ordinary ``PostgresStore`` into a private staging schema (`og_staging_<hash>`, one per
/// target schema), then this installer's own connection drops the old store's tables from the
/// target schema, moves the staged tables there (`ALTER TABLE … SET SCHEMA`, their indexes and
/// constraints with them) and drops the staging schema, all in one transaction under the
/// store's advisory lock. A failure or a killed process leaves the target schema as it was (a
/// staging schema left by a kill is dropped by the next run).
///
/// How a PostgreSQL store is migrated (``PostgresStore/migrate(at:steps:rowMapper:progress:)``)
/// and how a store converted to PostgreSQL appears whole or not at all
/// (``PostgresStore/createAtomically(at:schema:configuration:fill:)``).
///
/// ```swift
/// let installer = try PostgresStoreInstaller(url: url)
/// try installer.clearStaging()
/// try installer.transaction {
///     let staged = try PostgresStore(url: installer.stagingURL(), schema: schema, ...)
///     try staged.importRows(rows, schema: schema)
///     try installer.install(replacing: [], keepingTargetTables: false)
/// }
/// ```
final class PostgresStoreInstaller {
    /// The store's URL as given (its password included: the staging store connects with it).
    let url: URL
    /// The URL with its password replaced by `***` (what errors name).
    let path: String
    /// The schema the store lives in.
    let target: String
    /// The private schema the new store is written into first.
    let staging: String
    /// The installer's own connection (the one transaction).
    let connection: PostgresConnection

    /// Connects to the database `url` names.
    /// - Throws: ``StoreError/cannotOpen(path:reason:)`` for an unreadable URL or a server
    ///   that cannot be reached.
    init(url: URL) throws {
        self.url = url
        let address: PostgresURL
        do {
            address = try PostgresURL(url)
        } catch {
            throw StoreError.cannotOpen(
                path: PostgresURL.redacted(url.absoluteString), reason: "\(error)")
        }
        path = address.description
        target = address.schema ?? PostgresStore.defaultSchema
        staging = "og_staging_" + Self.hash(target)
        do {
            connection = try PostgresConnection(url: address)
        } catch {
            throw StoreError.cannotOpen(path: path, reason: "\(error)")
        }
    }

    /// The store's URL with `schema=` naming the staging schema.
    func stagingURL() throws -> URL {
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: false) else {
            throw StoreError.cannotOpen(path: path, reason: "the URL cannot be taken apart")
        }
        var items = (components.queryItems ?? []).filter { $0.name != "schema" }
        items.append(URLQueryItem(name: "schema", value: staging))
        components.queryItems = items
        guard let made = components.url else {
            throw StoreError.cannotOpen(path: path, reason: "no URL for schema \(staging)")
        }
        return made
    }

    /// Runs `body` in one transaction holding the target store's advisory lock (the lock a
    /// store takes while it opens, so no process opens the store halfway through). PostgreSQL
    /// errors become ``StoreError/postgres(url:message:)``.
    @discardableResult
    func transaction<T>(_ body: () throws -> T) throws -> T {
        try postgres {
            try connection.transaction {
                try connection.execute(
                    "SELECT pg_advisory_xact_lock(hashtext($1::text))",
                    [.text("objectgraph store " + target)])
                return try body()
            }
        }
    }

    /// Drops the staging schema a killed run left, in a transaction of its own (committed
    /// before a store is staged there again).
    func clearStaging() throws {
        try transaction {
            try connection.run(
                "DROP SCHEMA IF EXISTS \(PostgresIdentifier.quoted(staging)) CASCADE")
        }
    }

    /// Drops the staging schema after a failure (best effort: the error that led here is the
    /// one reported).
    func discardStaging() {
        if connection.isInsideTransaction { _ = try? connection.run("ROLLBACK") }
        _ = try? connection.run(
            "DROP SCHEMA IF EXISTS \(PostgresIdentifier.quoted(staging)) CASCADE")
    }

    /// The metadata of the store in the target schema, `nil` when the schema holds none.
    func storedMetadata() throws -> StoreMetadata? {
        try postgres {
            let table = PostgresIdentifier.qualified(target, "Z_METADATA")
            let found = try connection.execute(
                "SELECT to_regclass($1::text) IS NOT NULL", [.text(table)])
            guard try found.rows.first?.bool(0) == true else { return nil }
            let result = try connection.execute(
                "SELECT \"Z_UUID\", \"Z_PLIST\" FROM \(table) ORDER BY \"Z_VERSION\" LIMIT 1")
            guard let row = result.rows.first, let plist = try row.bytes(1) else {
                throw StoreError.corruptMetadata(
                    path: path, reason: "Z_METADATA has no property list")
            }
            do {
                return try StoreMetadata(storeUUID: row.string(0) ?? "", propertyList: plist)
            } catch {
                throw StoreError.corruptMetadata(path: path, reason: "\(error)")
            }
        }
    }

    /// Locks the target schema's `tables` (those that exist) against writers until the
    /// transaction ends; readers go on.
    func lockAgainstWriters(_ tables: [String]) throws {
        let existing = try tableNames(in: target)
        let locked = tables.filter(existing.contains).map {
            PostgresIdentifier.qualified(target, $0)
        }
        guard !locked.isEmpty else { return }
        try postgres {
            try connection.run("LOCK TABLE \(locked.joined(separator: ", ")) IN EXCLUSIVE MODE")
        }
    }

    /// Moves the staged store into the target schema: drops the target's tables named in
    /// `replacing` (the old store's), then moves every staged table. A staged table whose name
    /// the target still holds is dropped when `keepingTargetTables` (tables the store keeps
    /// beside its layout, such as history, stay as they were), else the install fails naming
    /// it. Tables are dropped without `CASCADE`: a view or foreign key of the application that
    /// depends on one makes the install fail (and the transaction roll back) rather than go.
    func install(replacing oldTables: [String], keepingTargetTables: Bool) throws {
        try postgres {
            try connection.run("CREATE SCHEMA IF NOT EXISTS \(PostgresIdentifier.quoted(target))")
            for table in oldTables {
                try connection.run(
                    "DROP TABLE IF EXISTS \(PostgresIdentifier.qualified(target, table))")
            }
            let remaining = try tableNames(in: target)
            for table in try tableNames(in: staging).sorted() {
                let staged = PostgresIdentifier.qualified(staging, table)
                if remaining.contains(table) {
                    guard keepingTargetTables else {
                        throw StoreError.cannotWrite(
                            path: path,
                            reason: "schema \(target) already holds a table named \(table)")
                    }
                    try connection.run("DROP TABLE \(staged)")
                } else {
                    try connection.run(
                        "ALTER TABLE \(staged) SET SCHEMA \(PostgresIdentifier.quoted(target))")
                }
            }
            try connection.run("DROP SCHEMA \(PostgresIdentifier.quoted(staging))")
        }
    }

    /// Replaces the target store's metadata with `metadata` (after ``install(replacing:keepingTargetTables:)``).
    func writeMetadata(_ metadata: StoreMetadata) throws {
        let plist: Data
        do {
            plist = try metadata.propertyListData()
        } catch {
            throw StoreError.corruptMetadata(path: path, reason: "\(error)")
        }
        try postgres {
            try connection.execute(
                "UPDATE \(PostgresIdentifier.qualified(target, "Z_METADATA"))"
                    + " SET \"Z_UUID\" = $1, \"Z_PLIST\" = $2",
                [.text(metadata.storeUUID), .bytes(plist)])
        }
    }

    /// The names of the tables in `schema`.
    private func tableNames(in schema: String) throws -> Set<String> {
        try postgres {
            Set(
                try connection.execute(
                    "SELECT c.relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace"
                        + " WHERE n.nspname = $1::text AND c.relkind IN ('r', 'p')",
                    [.text(schema)]
                ).rows.compactMap { $0.string(0) })
        }
    }

    /// Runs `body`, turning PostgreSQL errors into ``StoreError/postgres(url:message:)``.
    @discardableResult
    private func postgres<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as PostgresError {
            throw StoreError.postgres(url: path, message: error.description)
        }
    }

    /// 16 hexadecimal digits of the FNV-1a hash of `text` (a stable staging name of at most
    /// 27 bytes for any schema name).
    private static func hash(_ text: String) -> String {
        var value: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            value ^= UInt64(byte)
            value = value &* 0x100_0000_01b3
        }
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}
