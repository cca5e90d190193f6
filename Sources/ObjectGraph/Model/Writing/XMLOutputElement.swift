/// One element of the XML tree the model writer renders: a name, attributes in the order they
/// are added, and child elements.
///
/// Rendering follows Xcode's layout: 4 spaces of indent per level, `<x .../>` for an element
/// without children, one element per line, and no newline after the last line.
struct XMLOutputElement {
    /// The element name.
    var name: String
    /// The attributes in output order.
    private(set) var attributes: [(name: String, value: String)] = []
    /// The child elements in output order.
    var children: [XMLOutputElement] = []

    /// Creates an element with no attributes and no children.
    init(_ name: String) {
        self.name = name
    }

    /// Adds `name="value"` when `value` is not `nil`.
    mutating func add(_ name: String, _ value: String?) {
        guard let value else { return }
        attributes.append((name, value))
    }

    /// Adds `name="YES"` when `isSet` is true; Xcode omits false flags.
    mutating func flag(_ name: String, _ isSet: Bool) {
        if isSet { attributes.append((name, "YES")) }
    }

    /// Adds the attributes a model element kept from its file without understanding them,
    /// sorted by name, after the known ones. Names already written, and names that are not valid
    /// XML names, are skipped so the output stays well-formed.
    mutating func addUnknown(_ unknown: [String: String]) {
        let written = Set(attributes.map(\.name))
        for name in unknown.keys.sorted()
        where !written.contains(name) && XMLEscaping.isValidName(name) {
            attributes.append((name, unknown[name] ?? ""))
        }
    }

    /// Appends the element, its attributes and its children to `output`, indented for `depth`.
    /// Lines are separated by `\n`; nothing follows the closing tag.
    func render(into output: inout String, depth: Int) {
        let indent = String(repeating: " ", count: depth * 4)
        output += indent
        output += "<"
        output += name
        for attribute in attributes {
            output += " "
            output += attribute.name
            output += "=\""
            // Model text is not user data: U+FFFD for what XML cannot hold keeps the file
            // one Xcode opens (see XMLEscaping).
            XMLEscaping.appendReplacingUnrepresentable(
                attribute.value, to: &output, as: .attributeValue)
            output += "\""
        }
        guard !children.isEmpty else {
            output += "/>"
            return
        }
        output += ">"
        for child in children {
            output += "\n"
            child.render(into: &output, depth: depth + 1)
        }
        output += "\n"
        output += indent
        output += "</"
        output += name
        output += ">"
    }
}
