import CLibXML2
import Foundation

/// The first error libxml2 reports while reading (later ones are usually consequences).
private final class ReaderErrorBox {
    var message: String?
    var line = 0
}

/// A thin, safe wrapper of libxml2's streaming reader (`xmlTextReader`): one node at a time, no
/// DOM, no network, no DTD loading, no entity substitution. Every failure is a ``StoreError``
/// naming the file and the line.
final class XMLStreamReader {
    /// The node kinds the XML store reader cares about (libxml2's `xmlReaderTypes`).
    enum NodeKind: Equatable {
        case element
        case endElement
        case text
        case whitespace
        case documentType
        case entityReference
        case other
    }

    /// Elements nested deeper than this are refused (the XML store needs four levels outside
    /// the metadata property list).
    static let maximumDepth = 64

    let path: String
    private let reader: xmlTextReaderPtr
    private let errors: ReaderErrorBox
    private let retainedErrors: Unmanaged<ReaderErrorBox>

    private static let initialized: Bool = {
        xmlInitParser()
        return true
    }()

    /// Starts reading `bytes`, which must stay valid as long as the reader is used (the reader
    /// does not copy them); `path` names the file in errors.
    init(bytes: UnsafeRawBufferPointer, path: String) throws {
        _ = Self.initialized
        self.path = path
        guard bytes.count < Int(Int32.max) else {
            throw StoreError.cannotOpen(path: path, reason: "the file is too large for XML")
        }
        let options =
            Int32(XML_PARSE_NONET.rawValue) | Int32(XML_PARSE_NOERROR.rawValue)
            | Int32(XML_PARSE_NOWARNING.rawValue) | Int32(XML_PARSE_BIG_LINES.rawValue)
            | Int32(XML_PARSE_HUGE.rawValue)
        guard let base = bytes.baseAddress,
            let reader = xmlReaderForMemory(
                base.assumingMemoryBound(to: CChar.self), Int32(bytes.count), nil, nil, options)
        else {
            throw StoreError.cannotOpen(path: path, reason: "cannot create an XML reader")
        }
        self.reader = reader
        errors = ReaderErrorBox()
        retainedErrors = Unmanaged.passRetained(errors)
        xmlTextReaderSetStructuredErrorHandler(
            reader,
            { userData, error in
                guard let userData, let error else { return }
                let box = Unmanaged<ReaderErrorBox>.fromOpaque(userData).takeUnretainedValue()
                guard box.message == nil, error.pointee.level.rawValue >= XML_ERR_ERROR.rawValue
                else { return }
                let text = error.pointee.message.map { String(cString: $0) } ?? ""
                box.message = text.trimmingCharacters(in: .whitespacesAndNewlines)
                box.line = Int(error.pointee.line)
            }, retainedErrors.toOpaque())
    }

    deinit {
        xmlFreeTextReader(reader)
        retainedErrors.release()
    }

    /// Moves to the next node; `false` at the end of the document.
    func read() throws -> Bool {
        let result = xmlTextReaderRead(reader)
        if result < 0 || errors.message != nil { throw parseFailure() }
        if result == 1, xmlTextReaderDepth(reader) > Self.maximumDepth {
            throw failure("elements are nested more than \(Self.maximumDepth) levels deep")
        }
        return result == 1
    }

    /// The kind of the current node.
    var kind: NodeKind {
        switch xmlTextReaderNodeType(reader) {
        case Int32(XML_READER_TYPE_ELEMENT.rawValue): return .element
        case Int32(XML_READER_TYPE_END_ELEMENT.rawValue): return .endElement
        case Int32(XML_READER_TYPE_TEXT.rawValue), Int32(XML_READER_TYPE_CDATA.rawValue):
            return .text
        case Int32(XML_READER_TYPE_WHITESPACE.rawValue),
            Int32(XML_READER_TYPE_SIGNIFICANT_WHITESPACE.rawValue):
            return .whitespace
        case Int32(XML_READER_TYPE_DOCUMENT_TYPE.rawValue): return .documentType
        case Int32(XML_READER_TYPE_ENTITY_REFERENCE.rawValue): return .entityReference
        default: return .other
        }
    }

    /// The current node's name (an element's tag).
    var name: String {
        xmlTextReaderConstName(reader).map { String(cString: $0) } ?? ""
    }

    /// The current node's text (text and whitespace nodes).
    var value: String {
        xmlTextReaderConstValue(reader).map { String(cString: $0) } ?? ""
    }

    /// The current node's depth (the root element is at 0).
    var depth: Int { Int(xmlTextReaderDepth(reader)) }

    /// Whether the current element is written `<name/>` (no end element follows).
    var isEmptyElement: Bool { xmlTextReaderIsEmptyElement(reader) == 1 }

    /// The line of the current node (where the parser is, when the node has none).
    var line: Int {
        if let node = xmlTextReaderCurrentNode(reader) {
            let line = Int(xmlGetLineNo(node))
            if line > 0 { return line }
        }
        return Int(xmlTextReaderGetParserLineNumber(reader))
    }

    /// The value of the current element's attribute `name`.
    func attribute(_ name: String) -> String? {
        guard xmlTextReaderMoveToAttribute(reader, name) == 1 else { return nil }
        defer { xmlTextReaderMoveToElement(reader) }
        return xmlTextReaderConstValue(reader).map { String(cString: $0) }
    }

    /// The text inside the current element, which must hold no elements. Leaves the reader on
    /// the element's end (or on the element itself when it is empty).
    func elementText() throws -> String {
        if isEmptyElement { return "" }
        let elementName = name
        var text = ""
        while try read() {
            switch kind {
            case .text, .whitespace: text += value
            case .endElement: return text
            case .element:
                throw failure("<\(elementName)> holds an element <\(name)>; expected only text")
            case .entityReference: throw failure("entity references are not allowed")
            default: continue
            }
        }
        throw failure("the document ends inside <\(elementName)>")
    }

    /// The current element's content as XML text (for the metadata property list): elements
    /// (without their attributes) and escaped text, read node by node under the depth limit.
    /// Leaves the reader on the element's end.
    func innerXML() throws -> String {
        if isEmptyElement { return "" }
        let targetDepth = depth
        let elementName = name
        var text = ""
        while try read() {
            switch kind {
            case .element:
                text += isEmptyElement ? "<\(name)/>" : "<\(name)>"
            case .endElement:
                if depth == targetDepth { return text }
                text += "</\(name)>"
            case .text, .whitespace:
                do {
                    try XMLEscaping.append(value, to: &text, as: .text)
                } catch {
                    throw failure("the metadata holds a character XML cannot hold")
                }
            case .entityReference:
                throw failure("entity references are not allowed")
            case .documentType, .other:
                continue
            }
        }
        throw failure("the document ends inside <\(elementName)>")
    }

    /// An error naming the file and the current line.
    func failure(_ reason: String, line explicitLine: Int? = nil) -> StoreError {
        StoreError.cannotOpen(
            path: path, reason: "line \(max(explicitLine ?? line, 1)): \(reason)")
    }

    private func parseFailure() -> StoreError {
        if let message = errors.message {
            return failure("the XML is not well-formed: \(message)", line: errors.line)
        }
        return failure("the XML is not well-formed")
    }
}
