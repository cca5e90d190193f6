import Foundation

/// Writes a whole graph as Core Data writes an XML store: the XML declaration and DOCTYPE,
/// `<databaseInfo>` (version 134481920, UUID, next object ID, metadata property list), then one
/// `<object>` per row in id order, 4-space indented; nil attributes are left out and every
/// relationship is written (empty ones without `idrefs`).
struct XMLStoreWriter {
    /// `0x08040000`, the `<version>` of every known Core Data XML store.
    static let databaseVersion = 134_481_920
    static let header =
        "<?xml version=\"1.0\" standalone=\"yes\"?>\n"
        + "<!DOCTYPE database SYSTEM \"file:///System/Library/DTDs/CoreData.dtd\">\n\n"

    let schema: ModelSchema

    /// The document for `contents`.
    func write(_ contents: AtomicStoreContents) throws -> Data {
        let identifiers = XMLObjectIdentifiers(
            rows: contents.rows, nextKeys: contents.nextKeys, schema: schema,
            previous: contents.metadata.additionalEntries[XMLObjectIdentifiers.keysEntry])
        var output = Self.header
        output.reserveCapacity(contents.rows.count * 400)
        output += "<database>\n    <databaseInfo>\n"
        output += "        <version>\(Self.databaseVersion)</version>\n"
        output += "        <UUID>"
        try escape(contents.metadata.storeUUID, into: &output, context: "the store UUID")
        output += "</UUID>\n"
        output += "        <nextObjectID>\(identifiers.lastNumber)</nextObjectID>\n"
        output += "        <metadata>\n"
        do {
            var entries = try XMLPropertyListWriter.entries(of: contents.metadata)
            entries[XMLObjectIdentifiers.keysEntry] =
                identifiers.displacedKeys.isEmpty ? nil : .dictionary(identifiers.displacedKeys)
            try XMLPropertyListWriter.append(entries, indent: 12, to: &output)
        } catch {
            throw UnwritableGraph("the store metadata cannot be written as XML: \(error)")
        }
        output += "        </metadata>\n    </databaseInfo>\n"
        let ordered = contents.rows.indices.map { index in
            (number: identifiers.number(of: contents.rows[index].id) ?? 0, index: index)
        }.sorted { $0.number < $1.number }
        for (_, index) in ordered {
            try append(contents.rows[index], identifiers: identifiers, to: &output)
        }
        output += "</database>\n"
        return Data(output.utf8)
    }

    private func append(
        _ row: StoreRow, identifiers: XMLObjectIdentifiers, to output: inout String
    ) throws {
        guard schema.entities.indices.contains(row.entityIndex),
            let id = identifiers.identifier(of: row.id)
        else {
            throw UnwritableGraph("the row \(row.id) names no entity of the model")
        }
        let entity = schema.entities[row.entityIndex]
        output += "    <object type=\""
        try escape(
            entity.name.uppercased(), into: &output, context: "an entity name", attribute: true)
        output += "\" id=\"\(id)\">\n"
        for (position, property) in entity.properties.enumerated() where !property.isTransient {
            let stored: StoredValue =
                row.values.indices.contains(position)
                ? row.values[position] : .value(.null)
            switch property {
            case .attribute(let attribute):
                guard case .value(let value) = stored, !value.isNull else { continue }
                guard let spelling = XMLAttributeCoding.spelling(of: attribute.type) else {
                    throw UnwritableGraph(
                        "\(entity.name).\(attribute.name): \(attribute.type) attributes cannot "
                            + "be stored in an XML store")
                }
                let text: String
                do {
                    text = try XMLAttributeCoding.text(for: value, type: attribute.type)
                } catch {
                    throw UnwritableGraph("\(entity.name).\(attribute.name): \(error)")
                }
                output += "        <attribute name=\""
                try escape(attribute.name.lowercased(), into: &output, attribute: true)
                output += "\" type=\"\(spelling)\">"
                try escape(
                    text, into: &output, context: "the value of \(entity.name).\(attribute.name)")
                output += "</attribute>\n"
            case .relationship(let relationship):
                let targets: [ObjectID]
                switch stored {
                case .toOne(let target): targets = target.map { [$0] } ?? []
                case .toMany(let list): targets = list ?? []
                case .value: targets = []
                }
                output += "        <relationship name=\""
                try escape(
                    relationship.relationship.name.lowercased(), into: &output, attribute: true)
                output += relationship.isToMany ? "\" type=\"0/0\"" : "\" type=\"1/1\""
                output += " destination=\""
                try escape(
                    relationship.relationship.destinationEntityName.uppercased(), into: &output,
                    attribute: true)
                output += "\""
                if !targets.isEmpty {
                    var references: [String] = []
                    references.reserveCapacity(targets.count)
                    for target in targets {
                        guard let reference = identifiers.identifier(of: target) else {
                            throw UnwritableGraph(
                                "\(entity.name).\(relationship.relationship.name) of \(row.id) "
                                    + "refers to \(target), which is not in the store")
                        }
                        references.append(reference)
                    }
                    output += " idrefs=\"" + references.joined(separator: " ") + "\""
                }
                output += "></relationship>\n"
            }
        }
        output += "    </object>\n"
    }

    private func escape(
        _ text: String, into output: inout String, context: String = "a name",
        attribute: Bool = false
    ) throws {
        do {
            try XMLEscaping.append(text, to: &output, as: attribute ? .attributeValue : .text)
        } catch {
            throw UnwritableGraph("\(context) holds \(error)")
        }
    }
}
