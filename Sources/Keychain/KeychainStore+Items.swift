import Foundation
import SQLiteDatabase

extension KeychainStore {
    // MARK: - SecItemAdd

    /// Adds an item (`SecItemAdd`).
    ///
    /// ```swift
    /// try store.add(.internetPassword(server: "example.com", account: "ada", protocol: "https",
    ///                                 data: Data("s3cret".utf8)))
    /// ```
    ///
    /// - Throws: `.duplicateItem` when an item with the same class, access group, service
    ///   (or server, protocol, port, path) and account exists; `.missingEntitlement` for a group
    ///   the app may not use; `.interactionNotAllowed` when the keychain is locked for the
    ///   item's accessibility; `.io`.
    public func add(_ item: KeychainItem) throws {
        let group = item.accessGroup ?? application.defaultAccessGroup
        try checkEntitlement(to: group)
        let keys = try openKeys()
        let classKey = try self.classKey(item.accessibility, in: keys)
        let now = Date().timeIntervalSince1970
        var record = ItemRecord(
            uuid: try Crypto.randomBytes(16), itemClass: item.itemClass, accessGroup: group,
            accessibility: item.accessibility, service: item.service, server: item.server,
            protocolName: item.protocol, port: Int64(item.port), path: item.path,
            accountIndex: try Self.blindIndex(item.account, keys: keys), created: now,
            modified: now)
        let sensitive = SensitiveAttributes(
            account: item.account, label: item.label, comment: item.comment)
        var secret = [UInt8](item.data)
        defer { SecretBytes.cleanse(&secret) }
        try Self.seal(&record, sensitive, data: secret, keys: keys, classKey: classKey)
        let summary = Self.summary(of: record)
        try write { [record] db in
            guard try !Self.exists(record, excluding: nil, db) else {
                throw KeychainError(.duplicateItem, "the keychain already has this \(summary)")
            }
            try db.execute(sql: ItemRecord.insertSQL, arguments: record.insertArguments)
        }
    }

    // MARK: - SecItemCopyMatching

    /// Finds items (`SecItemCopyMatching`): the first match or all of them
    /// (``KeychainQuery/matchLimit``), each with its data, attributes or both
    /// (``KeychainQuery/returning``).
    ///
    /// ```swift
    /// let token = try store.copyMatching(.genericPassword(service: "api", account: "ada"))
    ///     .first?.data
    /// ```
    ///
    /// - Throws: `.itemNotFound` when nothing matches; `.decode` when a matching row was
    ///   tampered with (its data is never returned); `.interactionNotAllowed` when the data of
    ///   a "when unlocked" item is asked for without the passphrase; `.missingEntitlement`.
    public func copyMatching(_ query: KeychainQuery) throws -> [KeychainMatch] {
        let keys = try openKeys()
        let filter = try self.filter(for: query, keys: keys)
        let records = try read { db in try Self.records(filter, db) }
        var matches: [KeychainMatch] = []
        for record in records {
            let sensitive = try Self.openAttributes(record, keys: keys)
            guard Self.matches(sensitive, query) else { continue }
            var data: Data?
            if query.returning.contains(.data) {
                var plaintext = try Self.openSecret(
                    record, classKey: try classKey(record.accessibility, in: keys))
                data = Data(plaintext)
                SecretBytes.cleanse(&plaintext)
            }
            let attributes =
                query.returning.contains(.attributes) ? record.attributes(with: sensitive) : nil
            matches.append(KeychainMatch(attributes: attributes, data: data))
            if query.matchLimit == .one { break }
        }
        guard !matches.isEmpty else {
            throw KeychainError(.itemNotFound, "no \(query.summary) matches the query")
        }
        return matches
    }

    // MARK: - SecItemUpdate

    /// Changes every item matching `query` (`SecItemUpdate`), in one transaction; each gets a
    /// new modification date and freshly encrypted blobs.
    ///
    /// - Throws: `.itemNotFound` when nothing matches; `.duplicateItem` when a new account
    ///   collides with another item; `.param` when `changes` changes nothing; `.decode` for a
    ///   tampered row; `.interactionNotAllowed` when a "when unlocked" item is involved without
    ///   the passphrase; `.missingEntitlement`.
    public func update(matching query: KeychainQuery, with changes: KeychainUpdate) throws {
        guard
            changes.data != nil || changes.account != nil || changes.label != nil
                || changes.comment != nil || changes.accessibility != nil
        else {
            throw KeychainError(.param, "the update of \(query.summary) changes nothing")
        }
        let keys = try openKeys()
        let filter = try self.filter(for: query, keys: keys)
        let newIndex = try changes.account.map { try Self.blindIndex($0, keys: keys) }
        let summary = query.summary
        try write { db in
            var updated = 0
            for var record in try Self.records(filter, db) {
                var sensitive = try Self.openAttributes(record, keys: keys)
                guard Self.matches(sensitive, query) else { continue }
                var secret = try Self.openSecret(
                    record, classKey: try Self.classKey(record.accessibility, in: keys))
                defer { SecretBytes.cleanse(&secret) }
                if let data = changes.data {
                    SecretBytes.cleanse(&secret)
                    secret = [UInt8](data)
                }
                if let account = changes.account, let newIndex {
                    sensitive.account = account
                    record.accountIndex = newIndex
                }
                if let label = changes.label { sensitive.label = label }
                if let comment = changes.comment { sensitive.comment = comment }
                if let accessibility = changes.accessibility {
                    record.accessibility = accessibility
                }
                record.modified = max(Date().timeIntervalSince1970, record.modified)
                if newIndex != nil, try Self.exists(record, excluding: record.id, db) {
                    throw KeychainError(
                        .duplicateItem, "the new account collides with another \(summary)")
                }
                try Self.seal(
                    &record, sensitive, data: secret, keys: keys,
                    classKey: try Self.classKey(record.accessibility, in: keys))
                try db.execute(
                    sql: """
                        UPDATE keychain_item SET accessibility = ?, account_index = ?,
                            modified = ?, attributes = ?, secret = ? WHERE id = ?
                        """,
                    arguments: StatementArguments(positional: [
                        .text(record.accessibility.rawValue), .blob(Data(record.accountIndex)),
                        .real(record.modified), .blob(Data(record.attributes)),
                        .blob(Data(record.secret)), .integer(record.id),
                    ]))
                updated += 1
            }
            guard updated > 0 else {
                throw KeychainError(.itemNotFound, "no \(summary) matches the update")
            }
        }
    }

    // MARK: - SecItemDelete

    /// Deletes every item matching `query` (`SecItemDelete`), in one transaction.
    ///
    /// - Returns: the number of items deleted (at least 1).
    /// - Throws: `.itemNotFound` when nothing matches; `.missingEntitlement`; `.decode` when a
    ///   label or comment must be compared and a row was tampered with.
    @discardableResult
    public func delete(matching query: KeychainQuery) throws -> Int {
        let keys = try openKeys()
        let filter = try self.filter(for: query, keys: keys)
        let needsAttributes = query.label != nil || query.comment != nil
        let summary = query.summary
        return try write { db in
            var deleted = 0
            for record in try Self.records(filter, db) {
                if needsAttributes {
                    let sensitive = try Self.openAttributes(record, keys: keys)
                    guard Self.matches(sensitive, query) else { continue }
                }
                try db.execute(
                    sql: "DELETE FROM keychain_item WHERE id = ?", arguments: [record.id])
                deleted += 1
            }
            guard deleted > 0 else {
                throw KeychainError(.itemNotFound, "no \(summary) matches the deletion")
            }
            return deleted
        }
    }

    // MARK: - Keys

    /// The open keys, unlocking with the default key file when the store is locked and the
    /// file exists.
    func openKeys() throws -> ClassKeys {
        let keys = currentKeys
        if keys.afterFirstUnlock != nil { return keys }
        let location = try self.location
        if FileManager.default.fileExists(atPath: location.keyFileURL.path) {
            try unlock(keyFile: location.keyFileURL)
            return currentKeys
        }
        guard try exists else {
            throw KeychainError(
                .noSuchKeychain, "the keychain \(location) has not been created yet")
        }
        throw KeychainError(
            .interactionNotAllowed,
            "the keychain \(location) is locked: unlock it with its passphrase or a key file")
    }

    func classKey(_ accessibility: KeychainAccessibility, in keys: ClassKeys) throws
        -> SecretBytes
    {
        try Self.classKey(accessibility, in: keys)
    }

    static func classKey(_ accessibility: KeychainAccessibility, in keys: ClassKeys) throws
        -> SecretBytes
    {
        guard let key = keys.classKey(accessibility) else {
            throw KeychainError(
                .interactionNotAllowed,
                "\"when unlocked\" items need the keychain unlocked by its passphrase")
        }
        return key
    }

    static func blindIndex(_ account: String, keys: ClassKeys) throws -> [UInt8] {
        guard let index = keys.index else {
            throw KeychainError(.interactionNotAllowed, "the keychain is locked")
        }
        return try Crypto.hmacSHA256(key: index, message: Array(account.utf8))
    }

    // MARK: - Sealing and opening rows

    /// Encrypts the attributes and the secret of `record` (after its clear columns are final).
    /// The caller owns `data` and wipes it (a copy made here could not be wiped in place).
    static func seal(
        _ record: inout ItemRecord, _ sensitive: SensitiveAttributes, data: [UInt8],
        keys: ClassKeys, classKey: SecretBytes
    ) throws {
        guard let attributeKey = keys.attributes else {
            throw KeychainError(.interactionNotAllowed, "the keychain is locked")
        }
        var plaintext = sensitive.encoded()
        defer { SecretBytes.cleanse(&plaintext) }
        record.attributes = try Crypto.seal(
            plaintext, key: attributeKey, aad: record.authenticatedData("attributes"))
        record.secret = try Crypto.seal(
            data, key: classKey, aad: record.authenticatedData("secret"))
    }

    /// Decrypts and checks the sensitive attributes (the account must match its blind index).
    static func openAttributes(_ record: ItemRecord, keys: ClassKeys) throws
        -> SensitiveAttributes
    {
        guard let attributeKey = keys.attributes else {
            throw KeychainError(.interactionNotAllowed, "the keychain is locked")
        }
        let what = "the attributes of keychain item \(record.id) (\(summary(of: record)))"
        var plaintext = try Crypto.open(
            record.attributes, key: attributeKey, aad: record.authenticatedData("attributes"),
            what: what)
        defer { SecretBytes.cleanse(&plaintext) }
        let sensitive = try SensitiveAttributes(decoding: plaintext)
        guard try blindIndex(sensitive.account, keys: keys) == record.accountIndex else {
            throw KeychainError(.decode, "\(what) do not match the row's account index")
        }
        return sensitive
    }

    /// Decrypts the secret.
    static func openSecret(_ record: ItemRecord, classKey: SecretBytes) throws -> [UInt8] {
        try Crypto.open(
            record.secret, key: classKey, aad: record.authenticatedData("secret"),
            what: "the secret of keychain item \(record.id) (\(summary(of: record)))")
    }

    static func matches(_ sensitive: SensitiveAttributes, _ query: KeychainQuery) -> Bool {
        if let label = query.label, sensitive.label != label { return false }
        if let comment = query.comment, sensitive.comment != comment { return false }
        return true
    }

    static func summary(of record: ItemRecord) -> String {
        switch record.itemClass {
        case .genericPassword:
            return "generic password of service \(record.service.debugDescription)"
        case .internetPassword:
            return "internet password of server \(record.server.debugDescription)"
        }
    }

    // MARK: - Selecting rows

    /// The SQL condition and arguments selecting a query's candidate rows.
    struct Filter: Sendable {
        var condition: String
        var arguments: [DatabaseValue]
    }

    func filter(for query: KeychainQuery, keys: ClassKeys) throws -> Filter {
        var clauses = ["class = ?"]
        var values: [DatabaseValue] = [.text(query.itemClass.rawValue)]
        if let group = query.accessGroup {
            try checkEntitlement(to: group)
            clauses.append("access_group = ?")
            values.append(.text(group))
        } else if !application.seesAllGroups {
            let groups = application.visibleAccessGroups
            let placeholders = Array(repeating: "?", count: groups.count)
            clauses.append("access_group IN (\(placeholders.joined(separator: ", ")))")
            values += groups.map { .text($0) }
        }
        let texts: [(String, String?)] = [
            ("service", query.service), ("server", query.server), ("protocol", query.protocol),
            ("path", query.path), ("accessibility", query.accessibility?.rawValue),
        ]
        for (column, value) in texts {
            if let value {
                clauses.append("\(column) = ?")
                values.append(.text(value))
            }
        }
        if let port = query.port {
            clauses.append("port = ?")
            values.append(.integer(Int64(port)))
        }
        if let account = query.account {
            clauses.append("account_index = ?")
            values.append(.blob(Data(try Self.blindIndex(account, keys: keys))))
        }
        return Filter(condition: clauses.joined(separator: " AND "), arguments: values)
    }

    static func records(_ filter: Filter, _ db: Database) throws -> [ItemRecord] {
        try db.fetchAll(
            sql: "SELECT \(ItemRecord.columns) FROM keychain_item WHERE \(filter.condition) "
                + "ORDER BY id",
            arguments: StatementArguments(positional: filter.arguments)
        ).map(ItemRecord.init(row:))
    }

    /// Whether another row has the primary key of `record`.
    static func exists(_ record: ItemRecord, excluding id: Int64?, _ db: Database) throws -> Bool {
        let count = try db.fetchValue(
            Int.self,
            sql: """
                SELECT COUNT(*) FROM keychain_item WHERE class = ? AND access_group = ?
                    AND service = ? AND server = ? AND protocol = ? AND port = ? AND path = ?
                    AND account_index = ? AND id != ?
                """,
            arguments: StatementArguments(positional: [
                .text(record.itemClass.rawValue), .text(record.accessGroup),
                .text(record.service), .text(record.server), .text(record.protocolName),
                .integer(record.port), .text(record.path), .blob(Data(record.accountIndex)),
                .integer(id ?? -1),
            ]))
        return (count ?? 0) > 0
    }

    func checkEntitlement(to group: String) throws {
        guard application.isEntitled(to: group) else {
            throw KeychainError(
                .missingEntitlement,
                "\(application.identifier) is not entitled to access group "
                    + group.debugDescription)
        }
    }
}
