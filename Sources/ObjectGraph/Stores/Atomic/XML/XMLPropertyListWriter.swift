import Archive
import Foundation

/// Writes the store metadata as the XML property list inside `<metadata>`, indented like the
/// rest of the document (keys sorted, as Apple writes them).
///
/// Dates are written as XML property lists hold them (``PropertyListDate``): UTC, proleptic
/// Gregorian calendar, whole seconds (fractions dropped, as Apple's writer does), years 0001
/// through 9999; a date outside those years is a ``StoreMetadataError`` naming its key and
/// value. Infinite and NaN reals are spelled as Apple's writer spells them (`+infinity`,
/// `-infinity`, `nan`).
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
        try append(.dictionary(entries), indent: indent + 4, key: nil, to: &output)
        output += String(repeating: " ", count: indent) + "</plist>\n"
    }

    /// Appends `value`, found at `key` (a key path: `Dates.[2]`) of the metadata.
    private static func append(
        _ value: PropertyListValue, indent: Int, key: String?, to output: inout String
    ) throws {
        let pad = String(repeating: " ", count: indent)
        switch value {
        case .string(let text):
            output += pad + "<string>"
            try XMLEscaping.append(text, to: &output, as: .text)
            output += "</string>\n"
        case .integer(let number): output += pad + "<integer>\(number)</integer>\n"
        case .real(let number): output += pad + "<real>\(realText(number))</real>\n"
        case .bool(let flag): output += pad + (flag ? "<true/>\n" : "<false/>\n")
        case .date(let date):
            guard let text = PropertyListDate.xmlText(date) else {
                throw StoreMetadataError(
                    .unencodable, key: key,
                    "the date \(PropertyListDate.describe(date)) is outside "
                        + "\(PropertyListDate.xmlRangeText), the dates an XML store's metadata "
                        + "holds (the SQLite and binary stores keep any date)")
            }
            output += pad + "<date>\(text)</date>\n"
        case .data(let bytes): output += pad + "<data>\(bytes.base64EncodedString())</data>\n"
        case .array(let items):
            if items.isEmpty {
                output += pad + "<array/>\n"
                return
            }
            output += pad + "<array>\n"
            for (index, item) in items.enumerated() {
                try append(
                    item, indent: indent + 4, key: path(key, "[\(index)]"), to: &output)
            }
            output += pad + "</array>\n"
        case .dictionary(let entries):
            if entries.isEmpty {
                output += pad + "<dict/>\n"
                return
            }
            output += pad + "<dict>\n"
            for name in entries.keys.sorted() {
                output += pad + "    <key>"
                try XMLEscaping.append(name, to: &output, as: .text)
                output += "</key>\n"
                if let item = entries[name] {
                    try append(item, indent: indent + 4, key: path(key, name), to: &output)
                }
            }
            output += pad + "</dict>\n"
        }
    }

    /// `component` after `path` in a key path.
    private static func path(_ path: String?, _ component: String) -> String {
        path.map { $0 + "." + component } ?? component
    }

    /// A real's text: Swift's shortest round-trip form, or Apple's spelling of infinities.
    static func realText(_ number: Double) -> String {
        if number.isNaN { return "nan" }
        if number.isInfinite { return number < 0 ? "-infinity" : "+infinity" }
        return "\(number)"
    }
}
