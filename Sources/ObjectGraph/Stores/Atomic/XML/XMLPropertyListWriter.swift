import Foundation

/// Writes the store metadata as the XML property list inside `<metadata>`, indented like the
/// rest of the document (keys sorted, as Apple writes them).
enum XMLPropertyListWriter {
    /// The metadata's property-list entries as Core Data puts them in an XML store: every key
    /// except `NSStoreType` and `NSStoreUUID`.
    static func entries(of metadata: StoreMetadata) throws -> [String: PropertyListValue] {
        let data = try metadata.propertyListData()
        let root = try PropertyListSerialization.propertyList(from: data, format: nil)
        guard case .dictionary(var entries)? = PropertyListValue(foundationValue: root) else {
            throw StoreMetadataError(.notADictionary, "the metadata is not a dictionary")
        }
        entries[StoreMetadata.storeTypeKey] = nil
        entries["NSStoreUUID"] = nil
        return entries
    }

    /// Appends `<plist version="1.0">…</plist>` at `indent` spaces.
    static func append(
        _ entries: [String: PropertyListValue], indent: Int, to output: inout String
    ) throws {
        output += String(repeating: " ", count: indent) + "<plist version=\"1.0\">\n"
        try append(.dictionary(entries), indent: indent + 4, to: &output)
        output += String(repeating: " ", count: indent) + "</plist>\n"
    }

    private static func append(
        _ value: PropertyListValue, indent: Int, to output: inout String
    ) throws {
        let pad = String(repeating: " ", count: indent)
        switch value {
        case .string(let text):
            output += pad + "<string>"
            try XMLEscaping.append(text, to: &output, as: .text)
            output += "</string>\n"
        case .integer(let number): output += pad + "<integer>\(number)</integer>\n"
        case .real(let number): output += pad + "<real>\(number)</real>\n"
        case .bool(let flag): output += pad + (flag ? "<true/>\n" : "<false/>\n")
        case .date(let date):
            output += pad + "<date>\(date.formatted(.iso8601))</date>\n"
        case .data(let bytes): output += pad + "<data>\(bytes.base64EncodedString())</data>\n"
        case .array(let items):
            if items.isEmpty {
                output += pad + "<array/>\n"
                return
            }
            output += pad + "<array>\n"
            for item in items { try append(item, indent: indent + 4, to: &output) }
            output += pad + "</array>\n"
        case .dictionary(let entries):
            if entries.isEmpty {
                output += pad + "<dict/>\n"
                return
            }
            output += pad + "<dict>\n"
            for key in entries.keys.sorted() {
                output += pad + "    <key>"
                try XMLEscaping.append(key, to: &output, as: .text)
                output += "</key>\n"
                if let item = entries[key] { try append(item, indent: indent + 4, to: &output) }
            }
            output += pad + "</dict>\n"
        }
    }
}
