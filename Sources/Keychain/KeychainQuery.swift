import Foundation

/// What to look for in ``KeychainStore/copyMatching(_:)``, ``KeychainStore/update(matching:with:)``
/// and ``KeychainStore/delete(matching:)``: a class and any attributes to match exactly.
///
/// ```swift
/// var query = KeychainQuery.genericPassword(service: "com.example.api")
/// query.matchLimit = .all
/// query.returning = .attributes
/// let accounts = try store.copyMatching(query).compactMap { $0.attributes?.account }
/// ```
///
/// A nil attribute matches anything. Service, server, protocol, port, path, access group and
/// accessibility are matched in SQL; the account through its keyed hash; label and comment
/// (encrypted) after decryption.
public struct KeychainQuery: Sendable, Hashable {
    /// The class to search.
    public var itemClass: KeychainItemClass
    /// The service to match.
    public var service: String?
    /// The account to match.
    public var account: String?
    /// The server to match.
    public var server: String?
    /// The protocol to match.
    public var `protocol`: String?
    /// The port to match.
    public var port: Int?
    /// The path to match.
    public var path: String?
    /// The label to match.
    public var label: String?
    /// The comment to match.
    public var comment: String?
    /// The access group to search; nil searches every group the app sees.
    public var accessGroup: String?
    /// The accessibility to match.
    public var accessibility: KeychainAccessibility?
    /// One match or all of them (for ``KeychainStore/copyMatching(_:)``; update and delete
    /// always act on every match).
    public var matchLimit: KeychainMatchLimit
    /// What each match returns.
    public var returning: KeychainReturn

    /// Creates a query.
    public init(
        itemClass: KeychainItemClass, service: String? = nil, account: String? = nil,
        server: String? = nil, protocol: String? = nil, port: Int? = nil, path: String? = nil,
        label: String? = nil, comment: String? = nil, accessGroup: String? = nil,
        accessibility: KeychainAccessibility? = nil, matchLimit: KeychainMatchLimit = .one,
        returning: KeychainReturn = .data
    ) {
        self.itemClass = itemClass
        self.service = service
        self.account = account
        self.server = server
        self.protocol = `protocol`
        self.port = port
        self.path = path
        self.label = label
        self.comment = comment
        self.accessGroup = accessGroup
        self.accessibility = accessibility
        self.matchLimit = matchLimit
        self.returning = returning
    }

    /// Generic passwords of `service` (and `account`).
    public static func genericPassword(service: String? = nil, account: String? = nil)
        -> KeychainQuery
    {
        KeychainQuery(itemClass: .genericPassword, service: service, account: account)
    }

    /// Internet passwords of `server` (and `account`, `protocol`, `port`, `path`).
    public static func internetPassword(
        server: String? = nil, account: String? = nil, protocol: String? = nil,
        port: Int? = nil, path: String? = nil
    ) -> KeychainQuery {
        KeychainQuery(
            itemClass: .internetPassword, account: account, server: server,
            protocol: `protocol`, port: port, path: path)
    }

    /// Words for error messages: the class and the clear-text attributes (never the
    /// account).
    var summary: String {
        var parts: [String] = [
            itemClass == .genericPassword ? "generic password" : "internet password"
        ]
        if let service { parts.append("service \(service.debugDescription)") }
        if let server { parts.append("server \(server.debugDescription)") }
        if let accessGroup { parts.append("access group \(accessGroup.debugDescription)") }
        return parts.joined(separator: ", ")
    }
}

/// The changes ``KeychainStore/update(matching:with:)`` makes; nil leaves a value as it is.
///
/// ```swift
/// try store.update(matching: .genericPassword(service: "mail", account: "ada"),
///                  with: KeychainUpdate(data: Data("new password".utf8)))
/// ```
public struct KeychainUpdate: Sendable, Hashable, CustomStringConvertible {
    /// The new secret.
    public var data: Data?
    /// The new account.
    public var account: String?
    /// The new label.
    public var label: String?
    /// The new comment.
    public var comment: String?
    /// The new accessibility (the secret is re-encrypted with that class's key).
    public var accessibility: KeychainAccessibility?

    /// Creates changes.
    public init(
        data: Data? = nil, account: String? = nil, label: String? = nil,
        comment: String? = nil, accessibility: KeychainAccessibility? = nil
    ) {
        self.data = data
        self.account = account
        self.label = label
        self.comment = comment
        self.accessibility = accessibility
    }

    /// Which values change, without any of them.
    public var description: String {
        var changed: [String] = []
        if data != nil { changed.append("data <redacted>") }
        if account != nil { changed.append("account") }
        if label != nil { changed.append("label") }
        if comment != nil { changed.append("comment") }
        if let accessibility { changed.append("accessibility \(accessibility.rawValue)") }
        return "KeychainUpdate(\(changed.joined(separator: ", ")))"
    }
}
