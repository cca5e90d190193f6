import Foundation
import KeyedArchive

/// Attributes, relationships and fetched properties, with Core Data's keys. A property's `_P`
/// flags: 0x1 always, 0x2 optional, 0x8 transient, 0x10 no validation predicates, 0x20 no
/// validation warnings, 0x40 no user info, 0x80 no version hash modifier, 0x100 indexed by
/// Spotlight, 0x200 stored in an external record, 0x400 ordered; the Boolean keys
/// (`NSIsOptional`, `NSIsTransient`, `NSIsOrdered`, `NSIsIndexed`) are written only when true,
/// as Core Data does.
extension ArchivedModelWriter {
    /// The parts every property has.
    struct CommonParts {
        var name: String
        var isOptional: Bool
        var isTransient = false
        var isOrdered = false
        var isIndexed = false
        var isIndexedBySpotlight = false
        var isStoredInExternalRecord = false
        var renamingIdentifier: String? = nil
        var versionHashModifier: String? = nil
        var userInfo = UserInfo()
        var rules: [(predicate: PropertyListObject, warning: PropertyListObject)] = []
    }

    mutating func writeOwnProperties(of entity: Entity, entityReference: PropertyListObject) {
        let references = ownReferences[entity.name] ?? [:]
        var written: Set<String> = []
        for attribute in entity.attributes {
            guard let reference = references[attribute.name],
                written.insert(attribute.name).inserted
            else { continue }
            writeAttribute(attribute, reference, entityReference)
        }
        for relationship in entity.relationships {
            guard let reference = references[relationship.name],
                written.insert(relationship.name).inserted
            else { continue }
            writeRelationship(relationship, reference, entityReference)
        }
        for fetched in entity.fetchedProperties {
            guard let reference = references[fetched.name], written.insert(fetched.name).inserted
            else { continue }
            var parts = CommonParts(name: fetched.name, isOptional: fetched.isOptional)
            parts.userInfo = fetched.userInfo
            var fields = common(parts, entityReference)
            fields["NSFetchRequest"] = fetchRequest(fetched.fetchRequest)
            fields["_NSFetchRequestEntityName"] = table.string(fetched.fetchRequest.entityName)
            table.fill(reference, "NSFetchedPropertyDescription", fields)
        }
    }

    /// The fields of `parts` and the `_P` flags.
    private mutating func common(_ parts: CommonParts, _ entityReference: PropertyListObject)
        -> [String: PropertyListObject]
    {
        var flags: Int64 = 0x1
        var fields: [String: PropertyListObject] = [
            "NSPropertyName": table.string(parts.name), "NSEntity": entityReference,
            "NSRenamingIdentifier": table.string(parts.renamingIdentifier ?? parts.name),
        ]
        if parts.isOptional {
            flags |= 0x2
            fields["NSIsOptional"] = .bool(true)
        }
        if parts.isTransient {
            flags |= 0x8
            fields["NSIsTransient"] = .bool(true)
        }
        if parts.isOrdered {
            flags |= 0x400
            fields["NSIsOrdered"] = .bool(true)
        }
        if parts.isIndexed { fields["NSIsIndexed"] = .bool(true) }
        if parts.isIndexedBySpotlight { flags |= 0x100 }
        if parts.isStoredInExternalRecord { flags |= 0x200 }
        if parts.rules.isEmpty {
            flags |= 0x30
        } else {
            fields["NSValidationPredicates"] = table.array(
                parts.rules.map(\.predicate), "NSMutableArray")
            fields["NSValidationWarnings"] = table.array(
                parts.rules.map(\.warning), "NSMutableArray")
        }
        if parts.userInfo.isEmpty {
            flags |= 0x40
        } else {
            fields["NSUserInfo"] = userInfo(parts.userInfo)
        }
        if let modifier = parts.versionHashModifier, !modifier.isEmpty {
            fields["NSVersionHashModifier"] = table.string(modifier)
        } else {
            flags |= 0x80
        }
        fields["_P"] = .integer(flags)
        return fields
    }

    private mutating func writeAttribute(
        _ attribute: Attribute, _ reference: PropertyListObject,
        _ entityReference: PropertyListObject
    ) {
        var parts = CommonParts(name: attribute.name, isOptional: attribute.isOptional)
        parts.isTransient = attribute.isTransient
        parts.isIndexed = attribute.isIndexed
        parts.isIndexedBySpotlight = attribute.isIndexedBySpotlight
        parts.isStoredInExternalRecord = attribute.isStoredInExternalRecord
        parts.renamingIdentifier = attribute.renamingIdentifier
        parts.versionHashModifier = attribute.versionHashModifier
        parts.userInfo = attribute.userInfo
        parts.rules = validationRules(attribute)
        var fields = common(parts, entityReference)
        var storage: Int64 = 0
        if attribute.allowsExternalBinaryDataStorage { storage |= 0x4 }
        if attribute.preservesValueInHistoryOnDeletion { storage |= 0x10 }
        fields["NSAttributeType"] = .integer(Self.code(of: attribute.type))
        fields["NSAttributeValueClassName"] = table.string(
            attribute.type == .transformable
                ? attribute.customClassName : Self.valueClassName(of: attribute.type))
        fields["NSDefaultValue"] = defaultValue(attribute)
        fields["NSValueTransformerName"] = table.string(attribute.valueTransformerName)
        fields["NSFlagsKey"] = .integer(storage)
        if attribute.isDerived,
            let derivation = attribute.derivationExpression.flatMap({ try? Expression(format: $0) })
        {
            fields["NSDerivationExpression"] = expression(derivation)
        }
        table.fill(
            reference,
            attribute.isDerived ? "NSDerivedAttributeDescription" : "NSAttributeDescription",
            fields)
    }

    private mutating func writeRelationship(
        _ relationship: Relationship, _ reference: PropertyListObject,
        _ entityReference: PropertyListObject
    ) {
        var parts = CommonParts(name: relationship.name, isOptional: relationship.isOptional)
        parts.isTransient = relationship.isTransient
        parts.isOrdered = relationship.isOrdered
        parts.isIndexed = relationship.isIndexed
        parts.isIndexedBySpotlight = relationship.isIndexedBySpotlight
        parts.isStoredInExternalRecord = relationship.isStoredInExternalRecord
        parts.renamingIdentifier = relationship.renamingIdentifier
        parts.versionHashModifier = relationship.versionHashModifier
        parts.userInfo = relationship.userInfo
        var fields = common(parts, entityReference)
        let destination = relationship.destinationEntityName
        fields["NSDestinationEntity"] = entityReferences[destination] ?? ArchiveObjectTable.null
        fields["_NSDestinationEntityName"] = table.string(destination)
        fields["_NSInverseRelationshipName"] = table.string(relationship.inverseName)
        fields["NSInverseRelationship"] =
            relationship.inverseName.map { propertyReference(destination, $0) }
            ?? ArchiveObjectTable.null
        let counts = 0...Int(UInt32.max)
        fields["NSMinCount"] = .integer(Int64(counts.clamped(relationship.minCount)))
        fields["NSMaxCount"] = .integer(Int64(counts.clamped(relationship.maxCount)))
        let rule: Int64
        switch relationship.deleteRule {
        case .noAction: rule = 0
        case .nullify: rule = 1
        case .cascade: rule = 2
        case .deny: rule = 3
        }
        fields["NSDeleteRule"] = .integer(rule)
        table.fill(reference, "NSRelationshipDescription", fields)
    }

    // MARK: Values

    /// The `NSAttributeType` code of `type` (the inverse of the reader's table).
    static func code(of type: AttributeType) -> Int64 {
        for code in stride(from: Int64(0), through: 2100, by: 100)
        where ArchivedModelReader.attributeType(code: Int(code)) == type {
            return code
        }
        return 0
    }

    /// The class Core Data records for an attribute type's values.
    static func valueClassName(of type: AttributeType) -> String? {
        switch type {
        case .integer16, .integer32, .integer64, .double, .float, .boolean: return "NSNumber"
        case .decimal: return "NSDecimalNumber"
        case .string: return "NSString"
        case .date: return "NSDate"
        case .binary: return "NSData"
        case .uuid: return "NSUUID"
        case .uri: return "NSURL"
        default: return nil
        }
    }

    /// `NSDefaultValue`: the default as the object Core Data keeps (a number, a string, an
    /// `NSDate`, `NSUUID`, `NSURL` or `NSDecimalNumber`); text that does not read as the
    /// attribute's type is kept as a string.
    private mutating func defaultValue(_ attribute: Attribute) -> PropertyListObject {
        if attribute.type == .date, let seconds = attribute.defaultDateTimeInterval {
            return date(seconds)
        }
        guard let text = attribute.defaultValueString else { return ArchiveObjectTable.null }
        return constant(text, attribute.type) ?? table.string(text)
    }

    /// `text` as a value of `type`, or `nil` when it does not read as one.
    mutating func constant(_ text: String, _ type: AttributeType) -> PropertyListObject? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        switch type {
        case .integer16, .integer32, .integer64:
            return Int64(trimmed).map { table.value(.integer($0)) }
        case .double, .float:
            return Double(trimmed).map { table.value(.real($0)) }
        case .boolean:
            switch trimmed.lowercased() {
            case "yes", "true", "1": return table.value(.integer(1))
            case "no", "false", "0": return table.value(.integer(0))
            default: return nil
            }
        case .decimal:
            guard let number = Decimal(string: trimmed, locale: Locale(identifier: "en_US_POSIX"))
            else { return nil }
            return decimal(number)
        case .uuid:
            guard let uuid = UUID(uuidString: trimmed) else { return nil }
            return table.object(
                "NSUUID", ["NS.uuidbytes": .data(withUnsafeBytes(of: uuid.uuid) { Data($0) })])
        case .uri:
            return table.object(
                "NSURL", ["NS.base": ArchiveObjectTable.null, "NS.relative": table.string(text)])
        case .string:
            return table.string(text)
        default:
            return nil
        }
    }

    mutating func date(_ seconds: Double) -> PropertyListObject {
        table.object("NSDate", ["NS.time": .real(seconds)])
    }

    /// An `NSDecimalNumber`: the mantissa's eight 16-bit words little-endian, the exponent,
    /// the sign and the count of words used.
    private mutating func decimal(_ value: Decimal) -> PropertyListObject {
        let magnitude = value.magnitude
        var mantissa = Data()
        var words = 0
        var rest = magnitude.significand
        for index in 0..<8 {
            var word = 0
            var quotient = Decimal(0)
            if rest > 0 {
                var divided = rest / 65_536
                NSDecimalRound(&quotient, &divided, 0, .down)
                word = NSDecimalNumber(decimal: rest - quotient * 65_536).intValue
                rest = quotient
            }
            if word != 0 { words = index + 1 }
            mantissa.append(UInt8(word & 0xFF))
            mantissa.append(UInt8((word >> 8) & 0xFF))
        }
        return table.object(
            "NSDecimalNumber",
            [
                "NS.mantissa": .data(mantissa), "NS.exponent": .integer(Int64(magnitude.exponent)),
                "NS.negative": .bool(value < 0), "NS.length": .integer(Int64(words)),
                "NS.compact": .bool(true), "NS.mantissa.bo": .integer(1),
            ])
    }
}

extension ClosedRange where Bound == Int {
    /// `value` moved into the range.
    func clamped(_ value: Int) -> Int {
        Swift.min(Swift.max(value, lowerBound), upperBound)
    }
}
