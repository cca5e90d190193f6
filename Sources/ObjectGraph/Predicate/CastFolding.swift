import Foundation

/// Turns `CAST(constant, "Class")` into a typed constant where the class names a scalar type:
/// the canonical printer writes dates, data, UUIDs, URLs, decimals and object IDs that way.
enum CastFolding {
    static func fold(_ value: Expression, _ type: String) -> Expression {
        guard case .constant(let constant) = value else { return .cast(value, type) }
        if let folded = fold(constant, type) { return .constant(folded) }
        return .cast(value, type)
    }

    static func fold(_ constant: Value, _ type: String) -> Value? {
        switch (type, constant) {
        case ("NSDate", .integer(let n)):
            return .date(Date(timeIntervalSinceReferenceDate: Double(n)))
        case ("NSDate", .double(let d)):
            return .date(Date(timeIntervalSinceReferenceDate: d))
        case ("NSNumber", .string(let s)) where ["inf", "-inf", "nan"].contains(s):
            return Double(s).map(Value.double)
        case ("NSData", .string(let s)):
            return Data(base64Encoded: s).map(Value.data)
        case ("NSUUID", .string(let s)):
            return UUID(uuidString: s).map(Value.uuid)
        case ("NSURL", .string(let s)):
            guard let url = URL(string: s), url.absoluteString == s else { return nil }
            return .uri(url)
        case ("NSDecimalNumber", .string(let s)):
            guard let decimal = Decimal(string: s), decimal.description == s else { return nil }
            return .decimal(decimal)
        case ("NSManagedObjectID", .string(let s)):
            return objectID(fromURI: s).map(Value.objectID)
        default:
            return nil
        }
    }

    /// Parses `x-coredata://<store>/<Entity>/p<N>` or `…/t<UUID>`.
    static func objectID(fromURI text: String) -> ObjectID? {
        let prefix = "x-coredata://"
        guard text.hasPrefix(prefix) else { return nil }
        let parts = text.dropFirst(prefix.count).split(
            separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 3, let entity = parts[1].removingPercentEncoding, !entity.isEmpty,
            let tag = parts[2].first
        else { return nil }
        let rest = String(parts[2].dropFirst())
        let key: ObjectID.Key
        if tag == "p", let pk = Int64(rest) {
            key = .permanent(pk)
        } else if tag == "t", let id = UUID(uuidString: rest) {
            key = .temporary(id)
        } else {
            return nil
        }
        let id = ObjectID(entityName: entity, storeIdentifier: String(parts[0]), key: key)
        return id.description == text ? id : nil
    }
}
