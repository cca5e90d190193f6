import Foundation
import KeyedArchive

/// Attributes and relationships of an archived entity. A property's `_P` flags carry what its
/// Boolean fields may leave out: 0x2 optional, 0x8 transient, 0x100 indexed by Spotlight,
/// 0x200 stored in an external record, 0x400 ordered.
extension ArchivedModelReader {
    private struct PropertyFlags {
        var isOptional: Bool
        var isTransient: Bool
        var isOrdered: Bool
        var isIndexedBySpotlight: Bool
        var isStoredInExternalRecord: Bool
    }

    private mutating func flags(_ property: ArchivedObject) throws(ArchivedModelError)
        -> PropertyFlags
    {
        let bits = try integer(property, "_P") ?? 0
        return PropertyFlags(
            isOptional: try bool(property, "NSIsOptional") ?? (bits & 0x2 != 0),
            isTransient: try bool(property, "NSIsTransient") ?? (bits & 0x8 != 0),
            isOrdered: try bool(property, "NSIsOrdered") ?? (bits & 0x400 != 0),
            isIndexedBySpotlight: bits & 0x100 != 0,
            isStoredInExternalRecord: bits & 0x200 != 0)
    }

    /// The parts every property has: renaming identifier (left out when it is the name),
    /// version hash modifier, user info.
    private mutating func common(_ property: ArchivedObject, name: String)
        throws(ArchivedModelError) -> (renaming: String?, modifier: String?, userInfo: UserInfo)
    {
        let renaming = try string(property, "NSRenamingIdentifier")
        return (
            renaming == name ? nil : renaming, try string(property, "NSVersionHashModifier"),
            try userInfo(property)
        )
    }

    mutating func attribute(_ property: ArchivedObject) throws(ArchivedModelError) -> Attribute {
        let name = try string(property, "NSPropertyName") ?? ""
        guard let code = try integer(property, "NSAttributeType") else {
            throw failure(property, "attribute \"\(name)\" has no NSAttributeType")
        }
        guard let type = Self.attributeType(code: code) else {
            throw failure(property, "attribute \"\(name)\" has unknown NSAttributeType \(code)")
        }
        let flags = try self.flags(property)
        var attribute = Attribute(
            name, type: type, isOptional: flags.isOptional, isTransient: flags.isTransient,
            isIndexed: try bool(property, "NSIsIndexed") ?? false)
        attribute.isIndexedBySpotlight = flags.isIndexedBySpotlight
        attribute.isStoredInExternalRecord = flags.isStoredInExternalRecord
        let storage = try integer(property, "NSFlagsKey") ?? 0
        attribute.allowsExternalBinaryDataStorage = storage & 0x4 != 0
        attribute.preservesValueInHistoryOnDeletion = storage & 0x10 != 0
        attribute.valueTransformerName = try string(property, "NSValueTransformerName")
        if type == .transformable, let className = try string(property, "NSAttributeValueClassName")
        {
            attribute.customClassName = className
        }
        attribute.isDerived = property.isKind(of: "NSDerivedAttributeDescription")
        if attribute.isDerived, let value = try field(property, "NSDerivationExpression") {
            attribute.derivationExpression = try expression(
                value, of: property, "NSDerivationExpression")?.description
        }
        (attribute.renamingIdentifier, attribute.versionHashModifier, attribute.userInfo) =
            try common(property, name: name)
        try defaultValue(property, into: &attribute)
        try validationRules(property, into: &attribute)
        return attribute
    }

    /// `NSDefaultValue` as the model file's text (dates as seconds since 2001, Booleans as
    /// `YES`/`NO`, UUIDs and URLs as their text).
    private mutating func defaultValue(_ property: ArchivedObject, into attribute: inout Attribute)
        throws(ArchivedModelError)
    {
        guard let value = try field(property, "NSDefaultValue") else { return }
        switch value {
        case .date(let date):
            attribute.defaultDateTimeInterval = date.timeIntervalSinceReferenceDate
        case .bool(let flag) where attribute.type == .boolean:
            attribute.defaultValueString = flag ? "YES" : "NO"
        case .integer(let number) where attribute.type == .boolean:
            attribute.defaultValueString = number != 0 ? "YES" : "NO"
        case .object(let object) where object.isKind(of: "NSUUID"):
            guard case .data(let bytes)? = try field(object, "NS.uuidbytes"), bytes.count == 16
            else {
                throw failure(object, "an NSUUID without 16 NS.uuidbytes")
            }
            attribute.defaultValueString = UUID(uuid: Self.uuidTuple(bytes)).uuidString
        case .object(let object) where object.isKind(of: "NSURL"):
            guard let text = try string(object, "NS.relative") else {
                throw failure(object, "an NSURL without NS.relative")
            }
            attribute.defaultValueString = text
        case .object(let object) where object.isKind(of: "NSDecimalNumber"):
            attribute.defaultValueString = try Self.decimalText(object, reader: &self)
        default:
            guard let text = Self.text(of: value) else {
                throw failure(
                    property, "NSDefaultValue of \"\(attribute.name)\" is not a plain value")
            }
            attribute.defaultValueString = text
        }
    }

    private static func uuidTuple(_ bytes: Data) -> uuid_t {
        let b = [UInt8](bytes)
        return (
            b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12], b[13],
            b[14], b[15]
        )
    }

    /// An archived `NSDecimalNumber` (`NS.mantissa` little-endian bytes, `NS.exponent`,
    /// `NS.negative`) as text.
    private static func decimalText(_ object: ArchivedObject, reader: inout ArchivedModelReader)
        throws(ArchivedModelError) -> String
    {
        guard case .data(let bytes)? = try reader.field(object, "NS.mantissa"),
            let exponent = try reader.integer(object, "NS.exponent")
        else {
            throw reader.failure(object, "an NSDecimalNumber without NS.mantissa and NS.exponent")
        }
        var mantissa = Decimal(0)
        for byte in bytes.reversed() { mantissa = mantissa * 256 + Decimal(Int(byte)) }
        guard (-128...127).contains(exponent) else {
            throw reader.failure(object, "an NSDecimalNumber with exponent \(exponent)")
        }
        var value = Decimal(sign: .plus, exponent: exponent, significand: mantissa)
        if try reader.bool(object, "NS.negative") == true { value.negate() }
        return value.description
    }

    mutating func relationship(_ property: ArchivedObject) throws(ArchivedModelError)
        -> Relationship
    {
        let name = try string(property, "NSPropertyName") ?? ""
        let destination: String
        if let named = try string(property, "_NSDestinationEntityName") {
            destination = named
        } else if let entity = try objectField(property, "NSDestinationEntity"),
            let named = try string(entity, "NSEntityName")
        {
            destination = named
        } else {
            throw failure(property, "relationship \"\(name)\" has no destination entity")
        }
        var inverse = try string(property, "_NSInverseRelationshipName")
        if inverse == nil, let object = try objectField(property, "NSInverseRelationship") {
            inverse = try string(object, "NSPropertyName")
        }
        let minCount = try integer(property, "NSMinCount") ?? 0
        let maxCount = try integer(property, "NSMaxCount") ?? 0
        guard (0...Int(UInt32.max)).contains(minCount), (0...Int(UInt32.max)).contains(maxCount)
        else {
            throw failure(property, "relationship \"\(name)\" has counts \(minCount)...\(maxCount)")
        }
        let deleteRule: DeleteRule
        switch try integer(property, "NSDeleteRule") ?? 1 {
        case 0: deleteRule = .noAction
        case 1: deleteRule = .nullify
        case 2: deleteRule = .cascade
        case 3: deleteRule = .deny
        case let other:
            throw failure(property, "relationship \"\(name)\" has unknown NSDeleteRule \(other)")
        }
        let flags = try self.flags(property)
        var relationship = Relationship(
            name, destination: destination, toMany: maxCount != 1, inverse: inverse,
            deleteRule: deleteRule, isOptional: flags.isOptional, isOrdered: flags.isOrdered)
        relationship.minCountString = String(minCount)
        relationship.maxCountString = String(maxCount)
        relationship.isTransient = flags.isTransient
        relationship.isIndexed = try bool(property, "NSIsIndexed") ?? false
        relationship.isIndexedBySpotlight = flags.isIndexedBySpotlight
        relationship.isStoredInExternalRecord = flags.isStoredInExternalRecord
        (relationship.renamingIdentifier, relationship.versionHashModifier, relationship.userInfo) =
            try common(property, name: name)
        return relationship
    }

    /// The attribute type of an `NSAttributeType` code.
    static func attributeType(code: Int) -> AttributeType? {
        switch code {
        case 0: return .undefined
        case 100: return .integer16
        case 200: return .integer32
        case 300: return .integer64
        case 400: return .decimal
        case 500: return .double
        case 600: return .float
        case 700: return .string
        case 800: return .boolean
        case 900: return .date
        case 1000: return .binary
        case 1100: return .uuid
        case 1200: return .uri
        case 1800: return .transformable
        case 2000: return .objectID
        case 2100: return .composite
        default: return nil
        }
    }
}
