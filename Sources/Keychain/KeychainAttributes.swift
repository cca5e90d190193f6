import Foundation

/// The attributes of a stored item, as a query returns them (never the secret).
///
/// Its description and mirror leave out the sensitive attributes (account, label, comment),
/// which are encrypted at rest and so kept out of logs too.
public struct KeychainAttributes: Sendable, Hashable, CustomStringConvertible,
    CustomReflectable
{
    /// Generic or internet password.
    public let itemClass: KeychainItemClass
    /// The service ("" for internet passwords).
    public let service: String
    /// The account (decrypted).
    public let account: String
    /// The server ("" for generic passwords).
    public let server: String
    /// The protocol.
    public let `protocol`: String
    /// The port, 0 for none.
    public let port: Int
    /// The path.
    public let path: String
    /// The label (decrypted).
    public let label: String?
    /// The comment (decrypted).
    public let comment: String?
    /// The access group.
    public let accessGroup: String
    /// When the secret can be read.
    public let accessibility: KeychainAccessibility
    /// When the item was added.
    public let creationDate: Date
    /// When the item was last updated.
    public let modificationDate: Date

    /// The clear attributes; account, label and comment redacted.
    public var description: String {
        var parts = ["\(itemClass.rawValue)"]
        if !service.isEmpty { parts.append("service: \(service.debugDescription)") }
        if !server.isEmpty { parts.append("server: \(server.debugDescription)") }
        parts += [
            "account: <redacted>", "group: \(accessGroup.debugDescription)",
            "accessibility: \(accessibility.rawValue)",
        ]
        return "KeychainAttributes(\(parts.joined(separator: ", ")))"
    }

    /// A mirror without account, label and comment.
    public var customMirror: Mirror {
        Mirror(
            self,
            children: [
                "itemClass": itemClass, "service": service, "server": server,
                "protocol": `protocol`, "port": port, "path": path, "account": "<redacted>",
                "accessGroup": accessGroup, "accessibility": accessibility,
                "creationDate": creationDate, "modificationDate": modificationDate,
            ])
    }
}

/// One item found by ``KeychainStore/copyMatching(_:)``: its attributes and/or secret data,
/// as the query's ``KeychainQuery/returning`` asked.
///
/// Its description and mirror never show the data.
public struct KeychainMatch: Sendable, Hashable, CustomStringConvertible, CustomReflectable {
    /// The attributes, when asked for.
    public let attributes: KeychainAttributes?
    /// The secret, when asked for.
    public let data: Data?

    /// The data as UTF-8 text, if any and valid.
    public var string: String? {
        data.flatMap { String(data: $0, encoding: .utf8) }
    }

    /// The attributes, with the data redacted.
    public var description: String {
        var parts: [String] = []
        if let attributes {
            parts.append("\(attributes.itemClass.rawValue)")
            if !attributes.service.isEmpty { parts.append("service: \(attributes.service)") }
            if !attributes.server.isEmpty { parts.append("server: \(attributes.server)") }
            parts.append("group: \(attributes.accessGroup)")
        }
        if let data { parts.append("data: <\(data.count) bytes, redacted>") }
        return "KeychainMatch(\(parts.joined(separator: ", ")))"
    }

    /// A mirror without the data.
    public var customMirror: Mirror {
        Mirror(
            self,
            children: ["attributes": attributes as Any, "data": data == nil ? "nil" : "<redacted>"])
    }
}
