import Foundation
import SQLiteDatabase

/// One `keychain_item` row: the clear columns and the two sealed blobs.
struct ItemRecord: Sendable {
    var id: Int64 = 0
    var uuid: [UInt8]
    var itemClass: KeychainItemClass
    var accessGroup: String
    var accessibility: KeychainAccessibility
    var service: String
    var server: String
    var protocolName: String
    var port: Int64
    var path: String
    var accountIndex: [UInt8]
    var created: Double
    var modified: Double
    var attributes: [UInt8] = []
    var secret: [UInt8] = []

    /// The columns, in the order ``init(row:)`` reads them.
    static let columns =
        "id, uuid, class, access_group, accessibility, service, server, protocol, port, path, "
        + "account_index, created, modified, attributes, secret"

    init(
        uuid: [UInt8], itemClass: KeychainItemClass, accessGroup: String,
        accessibility: KeychainAccessibility, service: String, server: String,
        protocolName: String, port: Int64, path: String, accountIndex: [UInt8], created: Double,
        modified: Double
    ) {
        self.uuid = uuid
        self.itemClass = itemClass
        self.accessGroup = accessGroup
        self.accessibility = accessibility
        self.service = service
        self.server = server
        self.protocolName = protocolName
        self.port = port
        self.path = path
        self.accountIndex = accountIndex
        self.created = created
        self.modified = modified
    }

    /// Reads a row selected with ``columns``.
    ///
    /// - Throws: `.decode` when a column has an unexpected type or value.
    init(row: Row) throws {
        do {
            id = try row.decode(Int64.self, at: 0)
            uuid = [UInt8](try row.decode(Data.self, at: 1))
            let classText = try row.decode(String.self, at: 2)
            accessGroup = try row.decode(String.self, at: 3)
            let accessibilityText = try row.decode(String.self, at: 4)
            service = try row.decode(String.self, at: 5)
            server = try row.decode(String.self, at: 6)
            protocolName = try row.decode(String.self, at: 7)
            port = try row.decode(Int64.self, at: 8)
            path = try row.decode(String.self, at: 9)
            accountIndex = [UInt8](try row.decode(Data.self, at: 10))
            created = try row.decode(Double.self, at: 11)
            modified = try row.decode(Double.self, at: 12)
            attributes = [UInt8](try row.decode(Data.self, at: 13))
            secret = [UInt8](try row.decode(Data.self, at: 14))
            guard let itemClass = KeychainItemClass(rawValue: classText),
                let accessibility = KeychainAccessibility(rawValue: accessibilityText)
            else {
                throw KeychainError(.decode, "keychain item \(id) has an unknown class")
            }
            self.itemClass = itemClass
            self.accessibility = accessibility
        } catch let error as KeychainError {
            throw error
        } catch {
            throw KeychainError(.decode, "a keychain item row is malformed: \(error)")
        }
    }

    /// The values for `INSERT INTO keychain_item (<columns without id>)`.
    var insertArguments: StatementArguments {
        StatementArguments(positional: [
            .blob(Data(uuid)), .text(itemClass.rawValue), .text(accessGroup),
            .text(accessibility.rawValue), .text(service), .text(server), .text(protocolName),
            .integer(port), .text(path), .blob(Data(accountIndex)), .real(created),
            .real(modified), .blob(Data(attributes)), .blob(Data(secret)),
        ])
    }

    static let insertSQL = """
        INSERT INTO keychain_item (uuid, class, access_group, accessibility, service, server,
            protocol, port, path, account_index, created, modified, attributes, secret)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
        """

    /// The authenticated data of one of the row's blobs: the blob's purpose and every clear
    /// column, so that editing a column, or moving a blob to another row or column, makes
    /// decryption fail.
    func authenticatedData(_ purpose: String) -> [UInt8] {
        var writer = ByteWriter()
        writer.append("objectgraph.keychain.v1.item")
        writer.append(purpose)
        writer.append(uuid)
        writer.append(itemClass.rawValue)
        writer.append(accessGroup)
        writer.append(accessibility.rawValue)
        writer.append(service)
        writer.append(server)
        writer.append(protocolName)
        writer.append(port)
        writer.append(path)
        writer.append(accountIndex)
        writer.append(created)
        writer.append(modified)
        return writer.bytes
    }

    /// The public attributes, given the decrypted ones.
    func attributes(with sensitive: SensitiveAttributes) -> KeychainAttributes {
        KeychainAttributes(
            itemClass: itemClass, service: service, account: sensitive.account, server: server,
            protocol: protocolName, port: Int(truncatingIfNeeded: port), path: path,
            label: sensitive.label, comment: sensitive.comment, accessGroup: accessGroup,
            accessibility: accessibility, creationDate: Date(timeIntervalSince1970: created),
            modificationDate: Date(timeIntervalSince1970: modified))
    }
}

/// The attributes stored encrypted: account, label and comment.
struct SensitiveAttributes: Sendable, Equatable {
    var account: String
    var label: String?
    var comment: String?

    /// The plaintext to seal (the caller cleanses it).
    func encoded() -> [UInt8] {
        var writer = ByteWriter()
        writer.append(account)
        writer.append(optional: label)
        writer.append(optional: comment)
        return writer.bytes
    }

    init(account: String, label: String?, comment: String?) {
        self.account = account
        self.label = label
        self.comment = comment
    }

    /// Decodes ``encoded()``.
    init(decoding bytes: [UInt8]) throws {
        var reader = ByteReader(bytes, what: "a keychain item's encrypted attributes")
        account = try reader.text()
        label = try reader.optionalText()
        comment = try reader.optionalText()
        guard reader.isAtEnd else {
            throw KeychainError(.decode, "a keychain item's encrypted attributes are malformed")
        }
    }
}
