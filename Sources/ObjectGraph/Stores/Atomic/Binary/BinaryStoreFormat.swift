import Foundation

/// ObjectGraph's binary store file: compact, fast to load and save, every section checksummed.
/// The layout is documented byte by byte in `Docs/BinaryStoreFormat.md`:
///
/// ```text
/// header   magic 89 4F 47 42 0D 0A 1A 0A, format version (UInt16), flags, CRC-32
/// META     store UUID and the metadata property list
/// ENTS     entities with their stored properties (names, kinds, destinations)
/// OBJS     objects: entity, primary key, version, typed attribute values
/// RELS     relationships of each object: to-one targets, to-many target lists in order
/// trailer  "OGB-END\n" and the file's total length
/// ```
///
/// Each section is a 4-byte tag, a UInt64 payload length, the payload and a CRC-32 of all
/// three. Reading checks every length, count and checksum and throws a ``StoreError`` naming the
/// file, the section and the byte offset; it never traps and never returns part of a graph.
struct BinaryStoreFormat: AtomicStoreFormat {
    /// The first eight bytes of every binary store (PNG-style: a non-ASCII byte, "OGB", CR LF,
    /// Ctrl-Z, LF, so text-mode transfers and truncation to 7 bits are detected).
    static let magic: [UInt8] = [0x89, 0x4F, 0x47, 0x42, 0x0D, 0x0A, 0x1A, 0x0A]
    /// The format version this code writes and the newest it reads.
    static let formatVersion: UInt16 = 1
    /// The first eight bytes of the trailer.
    static let trailerMagic: [UInt8] = Array("OGB-END\n".utf8)
    /// The sections, in file order.
    static let sectionTags = ["META", "ENTS", "OBJS", "RELS"]
    static let headerSize = 16
    static let trailerSize = 16

    var storeType: StoreType { .binary }

    // MARK: - Writing

    func write(_ contents: AtomicStoreContents, schema: ModelSchema) throws -> Data {
        let table = BinaryEntityTable(schema: schema, nextKeys: contents.nextKeys)
        var writer = BinaryWriter(capacity: 64 + contents.rows.count * 48)
        writer.raw(Self.magic)
        writer.uint16(Self.formatVersion)
        writer.uint16(0)
        writer.uint32(CRC32.checksum(writer.bytes))

        var meta = BinaryWriter()
        meta.string(contents.metadata.storeUUID)
        do {
            meta.data(try contents.metadata.propertyListData())
        } catch {
            throw UnwritableGraph("cannot write the store's metadata: \(error)")
        }
        Self.appendSection("META", meta.bytes, to: &writer)

        var entities = BinaryWriter()
        table.write(schema: schema, to: &entities)
        Self.appendSection("ENTS", entities.bytes, to: &writer)

        var objects = BinaryWriter(capacity: contents.rows.count * 32)
        var relationships = BinaryWriter(capacity: contents.rows.count * 8)
        objects.varint(contents.rows.count)
        relationships.varint(contents.rows.count)
        for row in contents.rows {
            try Self.writeRow(
                row, table: table, schema: schema, objects: &objects,
                relationships: &relationships)
        }
        Self.appendSection("OBJS", objects.bytes, to: &writer)
        Self.appendSection("RELS", relationships.bytes, to: &writer)

        writer.raw(Self.trailerMagic)
        writer.uint64(UInt64(writer.bytes.count + 8))
        return Data(writer.bytes)
    }

    private static func appendSection(
        _ tag: String, _ payload: [UInt8], to writer: inout BinaryWriter
    ) {
        var head = BinaryWriter(capacity: 12)
        head.raw(Array(tag.utf8))
        head.uint64(UInt64(payload.count))
        var crc = CRC32.Running()
        head.bytes.withUnsafeBytes { crc.update($0) }
        payload.withUnsafeBytes { crc.update($0) }
        writer.raw(head.bytes)
        writer.raw(payload)
        writer.uint32(crc.value)
    }

    private static func writeRow(
        _ row: StoreRow, table: BinaryEntityTable, schema: ModelSchema,
        objects: inout BinaryWriter, relationships: inout BinaryWriter
    ) throws {
        guard row.entityIndex >= 0, row.entityIndex < table.entries.count,
            case .permanent(let key) = row.id.key, key > 0
        else {
            throw UnwritableGraph("cannot write \(row.id): no permanent key or entity")
        }
        let entry = table.entries[row.entityIndex]
        objects.varint(row.entityIndex)
        objects.varint(key)
        objects.varint(row.version)
        for position in entry.attributePositions {
            if position < row.values.count, case .value(let value) = row.values[position] {
                try BinaryValueCoding.write(value, to: &objects)
            } else {
                objects.byte(BinaryValueCoding.Tag.null.rawValue)
            }
        }
        for relationship in entry.relationships {
            let stored =
                relationship.position < row.values.count ? row.values[relationship.position] : nil
            if relationship.toMany {
                guard case .toMany(let ids?) = stored else {
                    relationships.varint(0)
                    continue
                }
                relationships.varint(ids.count)
                for id in ids {
                    let (entity, target) = try reference(id, schema: schema)
                    relationships.varint(entity)
                    relationships.varint(target)
                }
            } else {
                guard case .toOne(let id?) = stored else {
                    relationships.varint(0)
                    continue
                }
                let (entity, target) = try reference(id, schema: schema)
                relationships.varint(entity + 1)
                relationships.varint(target)
            }
        }
    }

    private static func reference(_ id: ObjectID, schema: ModelSchema) throws -> (Int, Int64) {
        guard let entity = schema.entity(named: id.entityName), case .permanent(let key) = id.key
        else {
            throw UnwritableGraph("cannot write a relationship to \(id)")
        }
        return (entity.index, key)
    }

    // MARK: - Reading

    func readMetadata(_ data: Data, path: String) throws -> StoreMetadata {
        try data.withUnsafeBytes { buffer in
            var reader = BinaryReader(
                buffer: buffer, path: path, section: "header", offset: 0, end: buffer.count)
            try Self.checkHeader(&reader)
            var section = try Self.openSection("META", &reader)
            let uuid = try section.string("the store UUID")
            let plistStart = section.offset
            let plist = try section.data("the metadata property list")
            try Self.finish(section)
            do {
                return try StoreMetadata(storeUUID: uuid, propertyList: plist)
            } catch {
                throw section.corrupt("\(error)", at: plistStart)
            }
        }
    }

    func read(_ data: Data, path: String, schema: ModelSchema) throws -> AtomicStoreContents {
        try data.withUnsafeBytes { buffer in
            try Self.read(buffer, path: path, schema: schema)
        }
    }

    private static func read(_ buffer: UnsafeRawBufferPointer, path: String, schema: ModelSchema)
        throws -> AtomicStoreContents
    {
        var reader = BinaryReader(
            buffer: buffer, path: path, section: "header", offset: 0, end: buffer.count)
        try checkHeader(&reader)

        var section = try openSection("META", &reader)
        let uuid = try section.string("the store UUID")
        let plistStart = section.offset
        let plist = try section.data("the metadata property list")
        try finish(section)
        let metadata: StoreMetadata
        do {
            metadata = try StoreMetadata(storeUUID: uuid, propertyList: plist)
        } catch {
            throw section.corrupt("\(error)", at: plistStart)
        }
        let check = metadata.compatibility(with: schema.model)
        guard check.isCompatible else {
            throw StoreError.incompatibleModel(path: path, compatibility: check)
        }

        section = try openSection("ENTS", &reader)
        let table = try BinaryEntityTable(reading: &section, schema: schema)
        try finish(section)
        var nextKeys: [Int: Int64] = [:]
        for entry in table.entries where entry.nextKey > 0 {
            nextKeys[entry.schemaIndex] = entry.nextKey
        }

        section = try openSection("OBJS", &reader)
        var (rows, fileEntities) = try readObjects(
            &section, table: table, schema: schema, uuid: uuid)
        try finish(section)

        section = try openSection("RELS", &reader)
        try readRelationships(
            &section, rows: &rows, fileEntities: fileEntities, table: table, uuid: uuid)
        try finish(section)

        try checkTrailer(&reader)
        return AtomicStoreContents(metadata: metadata, rows: rows, nextKeys: nextKeys)
    }

    /// Checks the magic number (naming the format when it is another one), the version and the
    /// header checksum.
    private static func checkHeader(_ reader: inout BinaryReader) throws {
        let buffer = reader.buffer
        let prefix = Array(buffer.prefix(magic.count))
        guard prefix == magic else {
            if buffer.isEmpty {
                throw reader.corrupt("the file is empty (0 bytes)")
            }
            if magic.starts(with: prefix) {
                throw reader.corrupt("the file ends after \(buffer.count) bytes, inside the header")
            }
            throw StoreError.cannotOpen(
                path: reader.path,
                reason: "not an ObjectGraph binary store: \(FileKind.describe(buffer))")
        }
        _ = try reader.raw(magic.count, "the magic number")
        let version = try reader.uint16("the format version")
        if version > formatVersion {
            throw StoreError.cannotOpen(
                path: reader.path,
                reason: "the file uses binary store format version \(version), written by a "
                    + "newer ObjectGraph; this version reads format \(formatVersion) and older")
        }
        guard version >= 1 else {
            throw reader.corrupt("format version 0 does not exist", at: magic.count)
        }
        _ = try reader.uint16("the flags")
        let expected = CRC32.checksum(UnsafeRawBufferPointer(rebasing: buffer[0..<12]))
        let stored = try reader.uint32("the header checksum")
        guard stored == expected else {
            throw reader.corrupt("the header checksum does not match", at: 12)
        }
    }

    /// Reads a section's tag, length and checksum, checks them, and returns a reader limited to
    /// its payload; `reader` moves past the section.
    private static func openSection(_ tag: String, _ reader: inout BinaryReader) throws
        -> BinaryReader
    {
        reader.section = tag
        let start = reader.offset
        guard reader.remaining > 0 else {
            throw reader.corrupt("the file ends before the \(tag) section (truncated)")
        }
        let tagBytes = try reader.raw(4, "the section tag")
        guard Array(tagBytes) == Array(tag.utf8) else {
            throw reader.corrupt(
                "expected the \(tag) section, found tag \(FileKind.printable(tagBytes))", at: start)
        }
        let length = try reader.uint64("the section length")
        guard length <= UInt64(max(reader.remaining - 4, 0)) else {
            throw reader.corrupt(
                "the section declares \(length) bytes but only \(max(reader.remaining - 4, 0)) "
                    + "remain before its checksum (truncated?)", at: start + 4)
        }
        let payloadStart = reader.offset
        let payload = try reader.raw(Int(length), "the section payload")
        let stored = try reader.uint32("the section checksum")
        var crc = CRC32.Running()
        crc.update(UnsafeRawBufferPointer(rebasing: reader.buffer[start..<payloadStart]))
        crc.update(payload)
        guard crc.value == stored else {
            throw reader.corrupt(
                "the section checksum does not match (the bytes were changed)",
                at: reader.offset - 4)
        }
        return BinaryReader(
            buffer: reader.buffer, path: reader.path, section: tag, offset: payloadStart,
            end: payloadStart + Int(length))
    }

    /// Requires that a section's payload was read to its end.
    private static func finish(_ section: BinaryReader) throws {
        guard section.remaining == 0 else {
            throw section.corrupt("\(section.remaining) unexpected bytes at the end of the section")
        }
    }

    private static func checkTrailer(_ reader: inout BinaryReader) throws {
        reader.section = "trailer"
        let start = reader.offset
        guard reader.remaining > 0 else {
            throw reader.corrupt("the file ends before its trailer (truncated)")
        }
        let bytes = try reader.raw(trailerMagic.count, "the trailer")
        guard Array(bytes) == trailerMagic else {
            throw reader.corrupt("the trailer's marker is wrong", at: start)
        }
        let length = try reader.uint64("the file length")
        guard length == UInt64(reader.buffer.count) else {
            throw reader.corrupt(
                "the trailer records \(length) bytes but the file has \(reader.buffer.count)",
                at: start + 8)
        }
        guard reader.remaining == 0 else {
            throw reader.corrupt("\(reader.remaining) bytes follow the trailer")
        }
    }

    /// The rows of the `OBJS` section with their attribute values, and each row's file entity.
    private static func readObjects(
        _ reader: inout BinaryReader, table: BinaryEntityTable, schema: ModelSchema, uuid: String
    ) throws -> ([StoreRow], [Int]) {
        let count = try reader.count("the object count", minimumSize: 3)
        guard count == 0 || !table.entries.isEmpty else {
            throw reader.corrupt("the file has objects but no entities")
        }
        let templates: [[StoredValue]] = schema.entities.map { entity in
            entity.properties.map { property in
                switch property {
                case .attribute: return .value(.null)
                case .relationship(let relationship):
                    return relationship.isToMany ? .toMany([]) : .toOne(nil)
                }
            }
        }
        var rows: [StoreRow] = []
        var fileEntities: [Int] = []
        rows.reserveCapacity(count)
        fileEntities.reserveCapacity(count)
        for _ in 0..<count {
            let start = reader.offset
            let fileIndex = try reader.int("an object's entity", max: table.entries.count - 1)
            let entry = table.entries[fileIndex]
            let key = try reader.int64("an object's primary key")
            guard key > 0 else {
                throw reader.corrupt("primary key \(key) is not positive", at: start)
            }
            let version = try reader.int64("an object's version")
            var values = templates[entry.schemaIndex]
            for position in entry.attributePositions {
                values[position] = .value(try BinaryValueCoding.read(from: &reader))
            }
            rows.append(
                StoreRow(
                    id: ObjectID(
                        entityName: entry.name, storeIdentifier: uuid, key: .permanent(key)),
                    entityIndex: entry.schemaIndex, version: version, values: values))
            fileEntities.append(fileIndex)
        }
        return (rows, fileEntities)
    }

    /// Fills the relationship values of `rows` from the `RELS` section.
    private static func readRelationships(
        _ reader: inout BinaryReader, rows: inout [StoreRow], fileEntities: [Int],
        table: BinaryEntityTable, uuid: String
    ) throws {
        let start = reader.offset
        let count = try reader.int("the object count", max: rows.count)
        guard count == rows.count else {
            throw reader.corrupt("\(count) objects here but \(rows.count) in OBJS", at: start)
        }
        let names = table.entries.map(\.name)
        let lastEntity = names.count - 1
        func target(_ reader: inout BinaryReader, entity: Int) throws -> ObjectID {
            let keyStart = reader.offset
            let key = try reader.int64("a relationship target's key")
            guard key > 0 else {
                throw reader.corrupt("target key \(key) is not positive", at: keyStart)
            }
            return ObjectID(entityName: names[entity], storeIdentifier: uuid, key: .permanent(key))
        }
        for index in rows.indices {
            let entry = table.entries[fileEntities[index]]
            for relationship in entry.relationships {
                if relationship.toMany {
                    let targets = try reader.count("a to-many target count", minimumSize: 2)
                    var ids: [ObjectID] = []
                    ids.reserveCapacity(targets)
                    for _ in 0..<targets {
                        let entity = try reader.int("a target's entity", max: lastEntity)
                        ids.append(try target(&reader, entity: entity))
                    }
                    rows[index].values[relationship.position] = .toMany(ids)
                } else {
                    let entity = try reader.int("a to-one target's entity", max: lastEntity + 1)
                    if entity > 0 {
                        rows[index].values[relationship.position] = .toOne(
                            try target(&reader, entity: entity - 1))
                    }
                }
            }
        }
    }
}
