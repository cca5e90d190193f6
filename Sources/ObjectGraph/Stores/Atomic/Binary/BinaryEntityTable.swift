import Foundation

/// The `ENTS` section: each entity of the file with its stored (non-transient) properties, so a
/// reader can check the file against its model and map every record to property positions.
struct BinaryEntityTable {
    /// What a stored property is, as one byte in the file.
    enum Kind: Equatable {
        case attribute(UInt8)
        case toOne
        case toMany
        case orderedToMany

        static let toOneCode: UInt8 = 0x80
        static let toManyCode: UInt8 = 0x81
        static let orderedToManyCode: UInt8 = 0x82

        var code: UInt8 {
            switch self {
            case .attribute(let code): return code
            case .toOne: return Self.toOneCode
            case .toMany: return Self.toManyCode
            case .orderedToMany: return Self.orderedToManyCode
            }
        }

        init?(code: UInt8) {
            switch code {
            case Self.toOneCode: self = .toOne
            case Self.toManyCode: self = .toMany
            case Self.orderedToManyCode: self = .orderedToMany
            default:
                guard Int(code) <= Self.attributeCodes.count else { return nil }
                self = .attribute(code)
            }
        }

        init(_ property: PropertySchema) {
            switch property {
            case .attribute(let attribute):
                self = .attribute(Self.attributeCode(attribute.type))
            case .relationship(let relationship):
                if !relationship.isToMany {
                    self = .toOne
                } else {
                    self = relationship.relationship.isOrdered ? .orderedToMany : .toMany
                }
            }
        }

        var isAttribute: Bool {
            if case .attribute = self { return true }
            return false
        }

        /// Attribute type codes 1…15 in this order; 0 for undefined or unknown types.
        static let attributeCodes: [AttributeType] = [
            .integer16, .integer32, .integer64, .decimal, .double, .float, .string, .boolean,
            .date, .binary, .uuid, .uri, .transformable, .objectID, .composite,
        ]

        static func attributeCode(_ type: AttributeType) -> UInt8 {
            guard let index = attributeCodes.firstIndex(of: type) else { return 0 }
            return UInt8(index + 1)
        }

        var name: String {
            switch self {
            case .attribute(let code):
                let index = Int(code) - 1
                guard index >= 0, index < Self.attributeCodes.count else {
                    return "an attribute of undefined type"
                }
                return "a \(Self.attributeCodes[index].xmlName ?? "?") attribute"
            case .toOne: return "a to-one relationship"
            case .toMany: return "a to-many relationship"
            case .orderedToMany: return "an ordered to-many relationship"
            }
        }
    }

    /// One entity of the file, mapped to the schema.
    struct Entry {
        /// The entity's index in the schema.
        var schemaIndex: Int
        /// The entity's name.
        var name: String
        /// Schema positions of the stored attributes, in file order.
        var attributePositions: [Int]
        /// Schema positions and kinds of the stored relationships, in file order.
        var relationships: [(position: Int, toMany: Bool)]
        /// The next primary key of the entity's inheritance tree (0: not recorded).
        var nextKey: Int64
    }

    var entries: [Entry]

    /// The table of `schema` (file index = schema index).
    init(schema: ModelSchema, nextKeys: [Int: Int64]) {
        entries = schema.entities.map { entity in
            var attributes: [Int] = []
            var relationships: [(position: Int, toMany: Bool)] = []
            for (position, property) in entity.properties.enumerated() where !property.isTransient {
                switch property {
                case .attribute: attributes.append(position)
                case .relationship(let relationship):
                    relationships.append((position, relationship.isToMany))
                }
            }
            return Entry(
                schemaIndex: entity.index, name: entity.name, attributePositions: attributes,
                relationships: relationships, nextKey: nextKeys[entity.index] ?? 0)
        }
    }

    /// Writes the section's payload.
    func write(schema: ModelSchema, to writer: inout BinaryWriter) {
        writer.varint(entries.count)
        for entry in entries {
            let entity = schema.entities[entry.schemaIndex]
            writer.string(entry.name)
            writer.varint(entity.parentIndex.map { $0 + 1 } ?? 0)
            writer.varint(entry.nextKey)
            let stored = entity.properties.filter { !$0.isTransient }
            writer.varint(stored.count)
            for property in stored {
                writer.string(property.name)
                let kind = Kind(property)
                writer.byte(kind.code)
                if case .relationship(let relationship) = property {
                    writer.string(relationship.relationship.destinationEntityName)
                }
            }
        }
    }

    /// Reads the section's payload and checks it against `schema`.
    init(reading reader: inout BinaryReader, schema: ModelSchema) throws {
        let count = try reader.count("the entity count", minimumSize: 4)
        entries = []
        entries.reserveCapacity(count)
        for _ in 0..<count {
            let start = reader.offset
            let name = try reader.string("an entity name")
            guard let entity = schema.entity(named: name) else {
                throw reader.corrupt("the file has an entity \(name) the model lacks", at: start)
            }
            let parent = try reader.int("the parent entity", max: count)
            if parent > 0, entity.parentIndex == nil {
                throw reader.corrupt("\(name) has a parent in the file but not in the model")
            }
            let nextKey = try reader.int64("the next primary key")
            let propertyCount = try reader.count("the property count", minimumSize: 2)
            var attributes: [Int] = []
            var relationships: [(position: Int, toMany: Bool)] = []
            for _ in 0..<propertyCount {
                let propertyStart = reader.offset
                let propertyName = try reader.string("a property name")
                let code = try reader.byte("a property kind")
                guard let kind = Kind(code: code) else {
                    throw reader.corrupt("unknown property kind \(code)", at: propertyStart)
                }
                if !kind.isAttribute { _ = try reader.string("a destination entity name") }
                guard let position = entity.positionByName[propertyName] else {
                    throw reader.corrupt(
                        "the file's \(name).\(propertyName) is not in the model", at: propertyStart)
                }
                let expected = Kind(entity.properties[position])
                guard expected == kind else {
                    throw reader.corrupt(
                        "\(name).\(propertyName) is \(kind.name) in the file but "
                            + "\(expected.name) in the model", at: propertyStart)
                }
                if kind.isAttribute {
                    attributes.append(position)
                } else {
                    relationships.append((position, kind != .toOne))
                }
            }
            entries.append(
                Entry(
                    schemaIndex: entity.index, name: entity.name, attributePositions: attributes,
                    relationships: relationships, nextKey: nextKey))
        }
    }
}
