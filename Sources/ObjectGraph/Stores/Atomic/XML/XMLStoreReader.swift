import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Reads a whole Core Data XML store with the streaming reader: `<databaseInfo>` (UUID, next
/// object ID, metadata property list), then every `<object>` with its `<attribute>` and
/// `<relationship>` elements, resolved against the model.
struct XMLStoreReader {
    /// One `<object>` as read, before relationships are resolved.
    struct ObjectRecord {
        var entityIndex: Int
        /// The `N` of `id="zN"`.
        var number: Int64
        /// The primary key: `N`, or the key the metadata's ``XMLObjectIdentifiers/keysEntry``
        /// gives.
        var key: Int64 = 0
        var line: Int
        var values: [StoredValue]
        var references: [Reference] = []
    }

    /// One `<relationship idrefs="…">`, before its targets are known.
    struct Reference {
        var position: Int
        var keys: [Int64]
        var line: Int
    }

    let path: String
    let schema: ModelSchema
    private let names: XMLNameIndex

    init(path: String, schema: ModelSchema) {
        self.path = path
        self.schema = schema
        names = XMLNameIndex(schema: schema)
    }

    /// Reads `data`.
    func read(_ data: Data) throws -> AtomicStoreContents {
        if data.isEmpty {
            throw StoreError.cannotOpen(path: path, reason: "the file is empty")
        }
        if let offset = Self.firstEntityDeclaration(in: data) {
            let line = data.prefix(offset).reduce(1) { $1 == 0x0A ? $0 + 1 : $0 }
            throw StoreError.cannotOpen(
                path: path,
                reason: "line \(line): entity declarations are not allowed in an XML store")
        }
        return try data.withUnsafeBytes { bytes in
            try read(XMLStreamReader(bytes: bytes, path: path))
        }
    }

    /// Reads only `<databaseInfo>`: the store's UUID and metadata (no object is looked at).
    func readMetadata(_ data: Data) throws -> StoreMetadata {
        if data.isEmpty {
            throw StoreError.cannotOpen(path: path, reason: "the file is empty")
        }
        if Self.firstEntityDeclaration(in: data) != nil {
            throw StoreError.cannotOpen(
                path: path, reason: "entity declarations are not allowed in an XML store")
        }
        return try data.withUnsafeBytes { bytes in
            let reader = try XMLStreamReader(bytes: bytes, path: path)
            var uuid: String?
            var nextObjectID: Int64 = 0
            var metadataText: String?
            while try reader.read() {
                guard reader.kind == .element else { continue }
                if reader.depth == 0 {
                    guard reader.name == "database" else {
                        throw reader.failure(
                            "the root element is <\(reader.name)>, not <database>: "
                                + "not a Core Data XML store")
                    }
                } else if reader.name == "databaseInfo" {
                    try readInfo(
                        reader, uuid: &uuid, nextObjectID: &nextObjectID, metadata: &metadataText)
                    break
                } else {
                    break
                }
            }
            guard let uuid else {
                throw StoreError.corruptMetadata(path: path, reason: "<databaseInfo> has no <UUID>")
            }
            return try readMetadata(metadataText, uuid: uuid)
        }
    }

    /// Reads the document `reader` is at the start of.
    private func read(_ reader: XMLStreamReader) throws -> AtomicStoreContents {
        var uuid: String?
        var nextObjectID: Int64 = 0
        var metadataText: String?
        var records: [ObjectRecord] = []
        var recordByKey: [Int64: Int] = [:]
        var sawRoot = false
        while try reader.read() {
            switch reader.kind {
            case .element:
                if reader.depth == 0 {
                    guard reader.name == "database" else {
                        throw reader.failure(
                            "the root element is <\(reader.name)>, not <database>: "
                                + "not a Core Data XML store")
                    }
                    sawRoot = true
                    continue
                }
                switch reader.name {
                case "databaseInfo":
                    try readInfo(
                        reader, uuid: &uuid, nextObjectID: &nextObjectID, metadata: &metadataText)
                case "object":
                    let record = try readObject(reader)
                    if let earlier = recordByKey[record.number] {
                        throw reader.failure(
                            "the id z\(record.number) is used twice (first on line "
                                + "\(records[earlier].line))", line: record.line)
                    }
                    recordByKey[record.number] = records.count
                    records.append(record)
                default:
                    throw reader.failure("unexpected element <\(reader.name)> in <database>")
                }
            case .text:
                if reader.depth > 0 { throw reader.failure("unexpected text in <database>") }
            case .entityReference:
                throw reader.failure("entity references are not allowed")
            default:
                continue
            }
        }
        guard sawRoot else {
            throw StoreError.cannotOpen(path: path, reason: "the file has no <database> element")
        }
        guard let uuid else {
            throw StoreError.corruptMetadata(path: path, reason: "<databaseInfo> has no <UUID>")
        }
        let metadata = try readMetadata(metadataText, uuid: uuid)
        let keys = metadata.additionalEntries[XMLObjectIdentifiers.keysEntry]
        var maximum = nextObjectID
        for record in records { maximum = max(maximum, record.number) }
        assignKeys(&records, keys: keys, largest: &maximum)
        let rows = try resolve(records, recordByKey: recordByKey, uuid: uuid)
        var nextKeys: [Int: Int64] = [:]
        for entity in schema.entities where entity.parentIndex == nil {
            nextKeys[entity.index] = maximum + 1
        }
        return AtomicStoreContents(
            metadata: metadata, rows: XMLRelationshipRepair.repair(rows, schema: schema),
            nextKeys: nextKeys)
    }

    // MARK: - databaseInfo

    private func readInfo(
        _ reader: XMLStreamReader, uuid: inout String?, nextObjectID: inout Int64,
        metadata: inout String?
    ) throws {
        if reader.isEmptyElement { return }
        let infoDepth = reader.depth
        while try reader.read() {
            switch reader.kind {
            case .element:
                switch reader.name {
                case "version":
                    _ = try reader.elementText()
                case "UUID":
                    let text = try reader.elementText()
                        .trimmingCharacters(in: .whitespacesAndNewlines)
                    guard !text.isEmpty else { throw reader.failure("the <UUID> is empty") }
                    uuid = text
                case "nextObjectID":
                    let text = try reader.elementText()
                        .trimmingCharacters(in: .whitespacesAndNewlines)
                    guard let number = Int64(text), number >= 0, number <= Self.maximumNumber
                    else {
                        throw reader.failure("<nextObjectID> '\(text)' is not a number")
                    }
                    nextObjectID = number
                case "metadata":
                    metadata = try reader.innerXML()
                default:
                    throw reader.failure("unexpected element <\(reader.name)> in <databaseInfo>")
                }
            case .endElement:
                if reader.depth == infoDepth { return }
            case .text:
                throw reader.failure("unexpected text in <databaseInfo>")
            default:
                continue
            }
        }
        throw reader.failure("the document ends inside <databaseInfo>")
    }

    private func readMetadata(_ text: String?, uuid: String) throws -> StoreMetadata {
        var metadata: StoreMetadata
        if let text, !text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
            let document = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n" + text
            do {
                metadata = try StoreMetadata(storeUUID: uuid, propertyList: Data(document.utf8))
            } catch {
                throw StoreError.corruptMetadata(path: path, reason: "<metadata>: \(error)")
            }
        } else {
            metadata = StoreMetadata(storeUUID: uuid, storeType: nil, versionHashesVersion: nil)
        }
        metadata.storeType = StoreType.xml.rawValue
        metadata.additionalEntries["NSStoreUUID"] = nil
        return metadata
    }

    // MARK: - Objects

    private func readObject(_ reader: XMLStreamReader) throws -> ObjectRecord {
        let line = reader.line
        guard let type = reader.attribute("type") else {
            throw reader.failure("<object> has no type")
        }
        guard let entityIndex = names.entityIndex(type) else {
            throw reader.failure("the model has no entity '\(type)'")
        }
        let entity = schema.entities[entityIndex]
        if entity.entity.isAbstract {
            throw reader.failure("entity \(entity.name) is abstract and cannot have objects")
        }
        guard let id = reader.attribute("id") else {
            throw reader.failure("<object type=\"\(type)\"> has no id")
        }
        guard let key = Self.key(of: id) else {
            throw reader.failure("the id '\(id)' is not z followed by a positive number")
        }
        var record = ObjectRecord(
            entityIndex: entityIndex, number: key, line: line,
            values: entity.properties.map { property in
                switch property {
                case .attribute: return .value(.null)
                case .relationship(let relationship):
                    if relationship.relationship.isTransient { return .value(.null) }
                    return relationship.isToMany ? .toMany([]) : .toOne(nil)
                }
            })
        if reader.isEmptyElement { return record }
        var seen = Set<Int>()
        let objectDepth = reader.depth
        while try reader.read() {
            switch reader.kind {
            case .element:
                let elementName = reader.name
                guard elementName == "attribute" || elementName == "relationship" else {
                    throw reader.failure("unexpected element <\(elementName)> in <object>")
                }
                guard let name = reader.attribute("name") else {
                    throw reader.failure("<\(elementName)> has no name")
                }
                guard let position = names.position(of: name, inEntity: entityIndex) else {
                    throw reader.failure("entity \(entity.name) has no property '\(name)'")
                }
                guard seen.insert(position).inserted else {
                    throw reader.failure("property '\(name)' appears twice in z\(key)")
                }
                switch entity.properties[position] {
                case .attribute(let attribute):
                    guard elementName == "attribute" else {
                        throw reader.failure("'\(name)' of \(entity.name) is an attribute")
                    }
                    let text = try reader.elementText()
                    if attribute.isTransient { continue }
                    do {
                        record.values[position] = .value(
                            try XMLAttributeCoding.value(from: text, type: attribute.type))
                    } catch {
                        throw reader.failure("\(entity.name).\(attribute.name): \(error)")
                    }
                case .relationship(let relationship):
                    guard elementName == "relationship" else {
                        throw reader.failure("'\(name)' of \(entity.name) is a relationship")
                    }
                    let reference = try readReference(reader, position: position)
                    try skipContent(reader)
                    if relationship.relationship.isTransient { continue }
                    if !relationship.isToMany, reference.keys.count > 1 {
                        throw reader.failure(
                            "the to-one relationship '\(name)' names \(reference.keys.count) "
                                + "objects", line: reference.line)
                    }
                    record.references.append(reference)
                }
            case .endElement:
                if reader.depth == objectDepth { return record }
            case .text:
                throw reader.failure("unexpected text in <object>")
            case .entityReference:
                throw reader.failure("entity references are not allowed")
            default:
                continue
            }
        }
        throw reader.failure("the document ends inside <object id=\"z\(key)\">")
    }

    private func readReference(_ reader: XMLStreamReader, position: Int) throws -> Reference {
        let line = reader.line
        var keys: [Int64] = []
        if let idrefs = reader.attribute("idrefs") {
            for token in idrefs.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "\t" }) {
                guard let key = Self.key(of: String(token)) else {
                    throw reader.failure("the idref '\(token)' is not z followed by a number")
                }
                keys.append(key)
            }
        }
        return Reference(position: position, keys: keys, line: line)
    }

    /// Skips whatever a `<relationship>` element holds (Core Data writes it empty).
    private func skipContent(_ reader: XMLStreamReader) throws {
        if reader.isEmptyElement { return }
        _ = try reader.elementText()
    }

    /// The byte offset of the first `<!ENTITY` in `data`, if any (jumping from `<` to `<` with
    /// `memchr`: fast on large files).
    static func firstEntityDeclaration(in data: Data) -> Int? {
        let needle = Array("<!ENTITY".utf8)
        return data.withUnsafeBytes { (buffer: UnsafeRawBufferPointer) -> Int? in
            guard let base = buffer.baseAddress else { return nil }
            let bytes = buffer.bindMemory(to: UInt8.self)
            var offset = 0
            while offset + needle.count <= bytes.count {
                guard let found = memchr(base + offset, 0x3C, bytes.count - offset) else {
                    return nil
                }
                let index = base.distance(to: UnsafeRawPointer(found))
                guard index + needle.count <= bytes.count else { return nil }
                var match = true
                for k in 1..<needle.count where bytes[index + k] != needle[k] {
                    match = false
                    break
                }
                if match { return index }
                offset = index + 1
            }
            return nil
        }
    }

    /// The largest id number read (so that new keys after it never overflow).
    static let maximumNumber: Int64 = 1 << 53

    /// `z102` → 102.
    static func key(of id: String) -> Int64? {
        guard id.hasPrefix("z"), let number = Int64(id.dropFirst()), number > 0,
            number <= maximumNumber
        else {
            return nil
        }
        return number
    }
}
