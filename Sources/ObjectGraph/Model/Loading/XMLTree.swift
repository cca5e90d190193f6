import CLibXML2
import Foundation

/// A parsed XML element: its name, attributes in document order, child elements, where its
/// start tag is, and the text directly inside it (Xcode's model files have none; the mapping
/// model reader's `<attribute>` elements hold their values as text).
struct XMLElementNode: Sendable {
    var name: String
    var attributes: [(name: String, value: String)]
    var children: [XMLElementNode]
    var location: SourceLocation
    /// The element's own text and CDATA, concatenated (not its children's).
    var text: String = ""

    /// The value of the attribute named `name`.
    func attribute(_ name: String) -> String? {
        attributes.first { $0.name == name }?.value
    }
}

/// The first error libxml2 reports while parsing (its "last error" is often a consequence).
private final class FirstError {
    var message: String?
    var line = 0
    var column = 0
}

/// Parses XML with libxml2 into ``XMLElementNode`` trees, safely: no network, no DTD loading,
/// no entity declarations (so no external entities and no entity expansion bombs), bounded
/// nesting depth, and every error located by line and column.
enum XMLTreeParser {
    /// The deepest element nesting accepted. libxml2 refuses more than 256 levels by default.
    static let maximumDepth = 256

    private static let initialized: Bool = {
        xmlInitParser()
        return true
    }()

    /// Parses `data`; `file` names it in locations.
    static func parse(_ data: Data, file: String?) throws -> XMLElementNode {
        _ = initialized
        let lines = LineIndex(data)
        if let offset = firstEntityDeclaration(in: data) {
            throw ModelError(
                .forbiddenConstruct,
                "entity declarations are not allowed in model files (entities are never expanded)",
                location: lines.location(ofOffset: offset, file: file))
        }
        guard data.count < Int(Int32.max) else {
            throw ModelError(.unreadable, "file is too large (\(data.count) bytes)", location: nil)
        }
        guard let context = xmlNewParserCtxt() else {
            throw ModelError(.unreadable, "cannot create an XML parser", location: nil)
        }
        defer { xmlFreeParserCtxt(context) }
        let firstError = FirstError()
        let retained = Unmanaged.passRetained(firstError)
        defer { retained.release() }
        context.pointee._private = retained.toOpaque()
        context.pointee.sax?.pointee.serror = { userData, error in
            guard let userData, let error else { return }
            let parser = userData.assumingMemoryBound(to: xmlParserCtxt.self)
            guard let box = parser.pointee._private else { return }
            let first = Unmanaged<FirstError>.fromOpaque(box).takeUnretainedValue()
            guard first.message == nil, error.pointee.level.rawValue >= XML_ERR_ERROR.rawValue
            else { return }
            first.message = error.pointee.message.map { String(cString: $0) } ?? ""
            first.line = Int(error.pointee.line)
            first.column = Int(error.pointee.int2)
        }
        let options =
            Int32(XML_PARSE_NONET.rawValue) | Int32(XML_PARSE_NOERROR.rawValue)
            | Int32(XML_PARSE_NOWARNING.rawValue) | Int32(XML_PARSE_BIG_LINES.rawValue)
            | Int32(XML_PARSE_HUGE.rawValue)
        let document: xmlDocPtr? = data.withUnsafeBytes { buffer in
            guard let base = buffer.baseAddress else { return nil }
            return xmlCtxtReadMemory(
                context, base.assumingMemoryBound(to: CChar.self), Int32(buffer.count), nil, nil,
                options)
        }
        guard let document else {
            throw parseError(context: context, first: firstError, data: data, file: file)
        }
        defer { xmlFreeDoc(document) }
        // The parser keeps its own copy of the input until reset: free it before converting,
        // so a file with a huge value is held at most three times (file, tree, String).
        xmlCtxtReset(context)
        guard let root = xmlDocGetRootElement(document) else {
            throw ModelError(
                .malformedXML, "the document has no root element",
                location: SourceLocation(file: file, line: 1, column: 1))
        }
        return try convert(root, lines: lines, file: file, depth: 0)
    }

    private static func parseError(
        context: xmlParserCtxtPtr, first: FirstError, data: Data, file: String?
    ) -> ModelError {
        if data.isEmpty {
            return ModelError(
                .malformedXML, "the file is empty",
                location: SourceLocation(
                    file: file, line: 1, column: 1))
        }
        if let message = first.message {
            return ModelError(
                .malformedXML, message.trimmingCharacters(in: .whitespacesAndNewlines),
                location: SourceLocation(
                    file: file, line: max(first.line, 1), column: max(first.column, 1)))
        }
        guard let error = xmlCtxtGetLastError(context) else {
            return ModelError(.malformedXML, "the XML is not well-formed", location: nil)
        }
        let raw = error.pointee.message.map { String(cString: $0) } ?? "the XML is not well-formed"
        let message = raw.trimmingCharacters(in: .whitespacesAndNewlines)
        let line = max(Int(error.pointee.line), 1)
        let column = max(Int(error.pointee.int2), 1)
        return ModelError(
            .malformedXML, message, location: SourceLocation(file: file, line: line, column: column)
        )
    }

    private static func convert(
        _ node: xmlNodePtr, lines: LineIndex, file: String?, depth: Int
    ) throws -> XMLElementNode {
        let name = node.pointee.name.map { String(cString: $0) } ?? ""
        let line = Int(xmlGetLineNo(node))
        let location = lines.location(ofTag: name, endingOnLine: line, file: file)
        guard depth < maximumDepth else {
            throw ModelError(
                .malformedXML, "elements are nested more than \(maximumDepth) levels deep",
                location: location)
        }
        var attributes: [(name: String, value: String)] = []
        var attribute = node.pointee.properties
        while let current = attribute {
            let attributeName = current.pointee.name.map { String(cString: $0) } ?? ""
            attributes.append((attributeName, textContent(of: current.pointee.children)))
            attribute = current.pointee.next
        }
        var children: [XMLElementNode] = []
        var text = ""
        var child = node.pointee.children
        while let current = child {
            if current.pointee.type == XML_ELEMENT_NODE {
                children.append(try convert(current, lines: lines, file: file, depth: depth + 1))
            } else if current.pointee.type == XML_TEXT_NODE
                || current.pointee.type == XML_CDATA_SECTION_NODE,
                let content = current.pointee.content
            {
                text += String(cString: content)
            }
            child = current.pointee.next
        }
        return XMLElementNode(
            name: name, attributes: attributes, children: children, location: location, text: text)
    }

    /// Concatenates the text of an attribute's children (text nodes only: entity declarations are
    /// refused before parsing, and the predefined entities are already substituted), releasing
    /// each node's text once copied so a huge value is not held twice for long.
    private static func textContent(of first: xmlNodePtr?) -> String {
        var result: String?
        var node = first
        while let current = node {
            if let content = current.pointee.content {
                let text = String(cString: content)
                if result == nil { result = text } else { result? += text }
                xmlNodeSetContent(current, nil)
            }
            node = current.pointee.next
        }
        return result ?? ""
    }

    /// The byte offset of the first `<!ENTITY` in `data`, if any.
    static func firstEntityDeclaration(in data: Data) -> Int? {
        let needle = Array("<!ENTITY".utf8)
        return data.withUnsafeBytes { (buffer: UnsafeRawBufferPointer) -> Int? in
            guard let base = buffer.baseAddress, buffer.count >= needle.count else { return nil }
            let last = buffer.count - needle.count
            var index = 0
            // memchr finds each '<' at C speed; only those are compared further.
            while index <= last,
                let found = memchr(base + index, 0x3C, last - index + 1)
            {
                let offset = base.distance(to: UnsafeRawPointer(found))
                if memcmp(found, needle, needle.count) == 0 { return offset }
                index = offset + 1
            }
            return nil
        }
    }
}
