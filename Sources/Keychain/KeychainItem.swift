import Foundation

/// A new item for ``KeychainStore/add(_:)``: its secret data and attributes.
///
/// ```swift
/// var item = KeychainItem.genericPassword(service: "com.example.api", account: "ada",
///                                         data: Data("s3cret".utf8))
/// item.label = "Example API token"
/// item.accessibility = .afterFirstUnlock
/// try store.add(item)
/// ```
///
/// Its description and mirror show the clear attributes, never the data, account, label or
/// comment.
public struct KeychainItem: Sendable, Hashable, CustomStringConvertible, CustomReflectable {
    /// Generic or internet password.
    public var itemClass: KeychainItemClass
    /// The service (generic passwords); stored in clear, searchable.
    public var service: String
    /// The account; stored encrypted, searched through a keyed hash.
    public var account: String
    /// The server host (internet passwords); stored in clear, searchable.
    public var server: String
    /// The protocol (`https`, `imap`…; internet passwords); in clear.
    public var `protocol`: String
    /// The port, 0 for none (internet passwords); in clear.
    public var port: Int
    /// The path (internet passwords); in clear.
    public var path: String
    /// A user-visible label; stored encrypted.
    public var label: String?
    /// A comment; stored encrypted.
    public var comment: String?
    /// The access group; nil puts the item in the app's default group.
    public var accessGroup: String?
    /// When the secret can be read.
    public var accessibility: KeychainAccessibility
    /// The secret.
    public var data: Data

    /// Creates an item.
    public init(
        itemClass: KeychainItemClass, service: String = "", account: String = "",
        server: String = "", protocol: String = "", port: Int = 0, path: String = "",
        label: String? = nil, comment: String? = nil, accessGroup: String? = nil,
        accessibility: KeychainAccessibility = .whenUnlocked, data: Data
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
        self.data = data
    }

    /// A generic password.
    public static func genericPassword(
        service: String, account: String, data: Data,
        accessibility: KeychainAccessibility = .whenUnlocked
    ) -> KeychainItem {
        KeychainItem(
            itemClass: .genericPassword, service: service, account: account,
            accessibility: accessibility, data: data)
    }

    /// An internet password.
    public static func internetPassword(
        server: String, account: String, protocol: String = "", port: Int = 0,
        path: String = "", data: Data, accessibility: KeychainAccessibility = .whenUnlocked
    ) -> KeychainItem {
        KeychainItem(
            itemClass: .internetPassword, account: account, server: server,
            protocol: `protocol`, port: port, path: path, accessibility: accessibility,
            data: data)
    }

    /// The attributes, with the data redacted.
    public var description: String {
        "KeychainItem(\(itemClass.rawValue), service: \(service.debugDescription), "
            + "server: \(server.debugDescription), data: <\(data.count) bytes, redacted>)"
    }

    /// A mirror without the data, so `dump(item)` does not print the secret.
    public var customMirror: Mirror {
        Mirror(
            self,
            children: [
                "itemClass": itemClass, "service": service, "server": server,
                "protocol": `protocol`, "port": port, "path": path,
                "accessGroup": accessGroup as Any, "accessibility": accessibility,
                "data": "<redacted>",
            ])
    }
}
