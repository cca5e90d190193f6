import Foundation

/// The friendly face of the keychain: the generic passwords of one service, by account.
///
/// ```swift
/// try KeychainStore.standard.unlock(passphrase: passphrase)
/// let keychain = Keychain(service: "com.example.api")
/// try keychain.set("s3cret", for: "ada")
/// try keychain.string(for: "ada")      // "s3cret"
/// try keychain.set(Token(value: "abc", expires: date), for: "token")   // any Codable
/// try keychain.value(Token.self, for: "token")
/// try keychain.allAccounts()           // ["ada", "token"]
/// try keychain.remove(for: "ada")
/// ```
///
/// Setting a value adds the item or updates the existing one. Reading a missing account gives
/// nil; every other failure throws a ``KeychainError``. See ``KeychainStore`` for storage,
/// encryption, unlocking and what this protects.
public struct Keychain: Sendable, CustomStringConvertible {
    /// The service the items belong to.
    public let service: String
    /// The store (and app identity) used.
    public let store: KeychainStore
    /// The access group for new items and searches; nil uses the app's default group for new
    /// items and searches every group the app sees.
    public var accessGroup: String?
    /// The accessibility of items this wrapper adds or updates.
    public var accessibility: KeychainAccessibility
    /// A label for items this wrapper adds.
    public var label: String?

    /// The items of `service` in `store` (default: the user's keychain for this process).
    public init(
        service: String, store: KeychainStore = .standard, accessGroup: String? = nil,
        accessibility: KeychainAccessibility = .whenUnlocked, label: String? = nil
    ) {
        self.service = service
        self.store = store
        self.accessGroup = accessGroup
        self.accessibility = accessibility
        self.label = label
    }

    // MARK: - Writing

    /// Stores `value` (as UTF-8) for `account`.
    public func set(_ value: String, for account: String) throws {
        try set(Data(value.utf8), for: account)
    }

    /// Stores `value` for `account`, adding the item or updating it.
    public func set(_ value: Data, for account: String) throws {
        do {
            try store.update(
                matching: query(account),
                with: KeychainUpdate(data: value, label: label, accessibility: accessibility))
        } catch let error as KeychainError where error.status == .itemNotFound {
            let item = KeychainItem(
                itemClass: .genericPassword, service: service, account: account, label: label,
                accessGroup: accessGroup, accessibility: accessibility, data: value)
            do {
                try store.add(item)
            } catch let error as KeychainError where error.status == .duplicateItem {
                // Another process added it meanwhile: update it instead.
                try store.update(matching: query(account), with: KeychainUpdate(data: value))
            }
        }
    }

    /// Stores any `Encodable` value for `account`, as JSON.
    public func set<Value: Encodable>(_ value: Value, for account: String) throws {
        let data: Data
        do {
            data = try JSONEncoder().encode(value)
        } catch {
            throw KeychainError(
                .param, "cannot encode a \(Value.self) for service \(service.debugDescription)")
        }
        try set(data, for: account)
    }

    // MARK: - Reading

    /// The data stored for `account`, or nil.
    public func data(for account: String) throws -> Data? {
        do {
            return try store.copyMatching(query(account)).first?.data
        } catch let error as KeychainError where error.status == .itemNotFound {
            return nil
        }
    }

    /// The text stored for `account`, or nil.
    ///
    /// - Throws: `.decode` when the data is not UTF-8.
    public func string(for account: String) throws -> String? {
        guard let data = try data(for: account) else { return nil }
        guard let text = String(data: data, encoding: .utf8) else {
            throw KeychainError(
                .decode, "the item of service \(service.debugDescription) is not UTF-8 text")
        }
        return text
    }

    /// The `Decodable` value stored (as JSON) for `account`, or nil.
    ///
    /// - Throws: `.decode` when the data is not a JSON `Value`.
    public func value<Value: Decodable>(_ type: Value.Type, for account: String) throws
        -> Value?
    {
        guard let data = try data(for: account) else { return nil }
        do {
            return try JSONDecoder().decode(Value.self, from: data)
        } catch {
            throw KeychainError(
                .decode,
                "the item of service \(service.debugDescription) is not a JSON \(Value.self)")
        }
    }

    /// Whether an item exists for `account` (its secret is not decrypted).
    public func contains(_ account: String) throws -> Bool {
        var query = query(account)
        query.returning = []
        do {
            return try !store.copyMatching(query).isEmpty
        } catch let error as KeychainError where error.status == .itemNotFound {
            return false
        }
    }

    /// The accounts of the service, in the order they were added.
    public func allAccounts() throws -> [String] {
        var query = query(nil)
        query.matchLimit = .all
        query.returning = .attributes
        do {
            return try store.copyMatching(query).compactMap { $0.attributes?.account }
        } catch let error as KeychainError where error.status == .itemNotFound {
            return []
        }
    }

    // MARK: - Removing

    /// Removes the item of `account`.
    ///
    /// - Returns: whether there was one.
    @discardableResult
    public func remove(for account: String) throws -> Bool {
        do {
            return try store.delete(matching: query(account)) > 0
        } catch let error as KeychainError where error.status == .itemNotFound {
            return false
        }
    }

    /// Removes every item of the service.
    ///
    /// - Returns: how many were removed.
    @discardableResult
    public func removeAll() throws -> Int {
        do {
            return try store.delete(matching: query(nil))
        } catch let error as KeychainError where error.status == .itemNotFound {
            return 0
        }
    }

    /// `Keychain(service: "…")`.
    public var description: String { "Keychain(service: \(service.debugDescription))" }

    private func query(_ account: String?) -> KeychainQuery {
        var query = KeychainQuery.genericPassword(service: service, account: account)
        query.accessGroup = accessGroup
        return query
    }
}
