import ObjectGraph

/// The HTML-like label of an entity's box in a ``ModelDiagram``: its name, then a section each
/// for attributes, relationships and fetched properties (the ones it declares; inherited ones
/// are in its parent's box).
enum ModelDiagramBox {
    /// The label of `entity`'s box (without the enclosing `<` `>`).
    static func label(of entity: Entity) -> String {
        var rows = [titleRow(entity)]
        let attributes = entity.attributes.map { attribute in
            row(
                attribute.name,
                detail: attribute.type.description + (attribute.isOptional ? "?" : ""),
                italic: attribute.isTransient)
        }
        let relationships = entity.relationships.map { relationship in
            let destination = DOTText.html(relationship.destinationEntityName)
            var detail = relationship.isToMany ? "[\(destination)]" : destination
            if relationship.isToMany && relationship.isOrdered { detail += " ordered" }
            if !relationship.isToMany && relationship.isOptional { detail += "?" }
            return row(relationship.name, escapedDetail: detail, italic: relationship.isTransient)
        }
        let fetched = entity.fetchedProperties.map { property in
            row(property.name, detail: "fetched", italic: true)
        }
        for section in [attributes, relationships, fetched] where !section.isEmpty {
            rows.append("<HR/>")
            rows += section
        }
        return "<TABLE BORDER=\"1\" CELLBORDER=\"0\" CELLSPACING=\"0\" CELLPADDING=\"3\" "
            + "COLOR=\"#5b6f8a\" BGCOLOR=\"#ffffff\">" + rows.joined() + "</TABLE>"
    }

    /// The name row: bold, or italic with «abstract» for an abstract entity.
    static func titleRow(_ entity: Entity) -> String {
        let name = DOTText.html(entity.name)
        let title =
            entity.isAbstract
            ? "<I>\(name)</I><BR/><FONT POINT-SIZE=\"9\">«abstract»</FONT>" : "<B>\(name)</B>"
        let color = entity.isAbstract ? "#eceff3" : "#dce6f2"
        return "<TR><TD COLSPAN=\"2\" BGCOLOR=\"\(color)\" CELLPADDING=\"5\">\(title)</TD></TR>"
    }

    /// A property row: the name on the left, `detail` (escaped here) in grey on the right.
    static func row(_ name: String, detail: String, italic: Bool) -> String {
        row(name, escapedDetail: DOTText.html(detail), italic: italic)
    }

    /// A property row whose detail is already escaped.
    static func row(_ name: String, escapedDetail: String, italic: Bool) -> String {
        let shown = italic ? "<I>\(DOTText.html(name))</I>" : DOTText.html(name)
        return "<TR><TD ALIGN=\"LEFT\">\(shown)</TD>"
            + "<TD ALIGN=\"LEFT\"><FONT COLOR=\"#5d6d7e\">\(escapedDetail)</FONT></TD></TR>"
    }
}
