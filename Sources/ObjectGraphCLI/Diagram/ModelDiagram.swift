import ObjectGraph

/// A model's entity-relationship diagram in Graphviz's DOT language, as Xcode's graph editor
/// draws it: a box per entity with its attributes (and types), relationships and fetched
/// properties; relationships as lines labelled with their names at the end they reach, one
/// arrowhead for to-one and two for to-many, an inverse pair as one line with a head at each
/// end; inheritance as a grey line with a hollow triangle at the parent; abstract entities
/// with an italic name and «abstract».
///
/// ```swift
/// let model = try EntityModel(contentsOf: URL(fileURLWithPath: "School.xcdatamodeld"))
/// let dot = ModelDiagram(model: model, title: "School").dot
/// ```
public struct ModelDiagram: Sendable {
    /// How the boxes are placed.
    public enum Layout: String, Sendable, CaseIterable {
        /// Layered for a model of up to ``ModelDiagram/springThreshold`` entities, spring
        /// beyond.
        case automatic
        /// In columns from left to right, parents before subentities and owners before what
        /// they own (Graphviz `dot`): clearest for small and medium models.
        case layered
        /// Related boxes pulled together and all boxes pushed apart, never overlapping
        /// (Graphviz `neato`): a large model stays about as wide as it is tall, with short
        /// lines, where columns would grow into a long strip of crossing lines.
        case spring
    }

    /// The most entities ``Layout/automatic`` lays out in columns.
    public static let springThreshold = 30

    /// The model drawn.
    public var model: EntityModel
    /// The diagram's caption (the model's name), or `nil` for none.
    public var title: String?
    /// How the boxes are placed.
    public var layout: Layout

    /// Creates the diagram of `model`, captioned `title`, laid out as `layout` says.
    public init(model: EntityModel, title: String? = nil, layout: Layout = .automatic) {
        self.model = model
        self.title = title
        self.layout = layout
    }

    /// The layout used: ``Layout/automatic`` resolved by the model's size.
    public var resolvedLayout: Layout {
        guard layout == .automatic else { return layout }
        return model.entities.count > Self.springThreshold ? .spring : .layered
    }

    /// The diagram as a DOT graph, ready for `dot -Tsvg` or `dot -Tpng`.
    public var dot: String {
        var identifiers: [String: String] = [:]
        for (index, entity) in model.entities.enumerated() where identifiers[entity.name] == nil {
            identifiers[entity.name] = "e\(index)"
        }
        var lines = ["digraph \(DOTText.quoted(title ?? "model")) {"]
        let layout = resolvedLayout
        lines += Self.graphAttributes(entityCount: model.entities.count, layout: layout)
        if let title {
            lines.append("  label=<<B>\(DOTText.html(title))</B>>;")
        }
        for (index, entity) in model.entities.enumerated()
        where identifiers[entity.name] == "e\(index)" {
            lines.append("  e\(index) [label=<\(ModelDiagramBox.label(of: entity))>];")
        }
        let edges = ModelDiagramEdge.edges(of: model).filter {
            identifiers[$0.tail] != nil && identifiers[$0.head] != nil
        }
        let lengths =
            layout == .spring
            ? Array(repeating: 1, count: edges.count) : Self.staggeredLengths(edges)
        for (index, edge) in edges.enumerated() {
            guard let tail = identifiers[edge.tail], let head = identifiers[edge.head] else {
                continue
            }
            lines.append(
                "  " + Self.statement(edge, tail: tail, head: head, length: lengths[index]))
        }
        lines.append("}")
        return lines.joined(separator: "\n") + "\n"
    }

    /// The graph, node and edge defaults.
    static func graphAttributes(entityCount: Int, layout: Layout = .layered) -> [String] {
        let placement: [String]
        if layout == .spring {
            // Boxes kept apart by a margin wide enough for the names at the lines' ends.
            placement = [
                "  graph [fontname=\"Helvetica\", fontsize=14, labelloc=t, splines=true, "
                    + "layout=neato, overlap=false, sep=\"+16\", pad=0.3];"
            ]
        } else {
            // Larger models spread out more so that the names on the lines stay apart.
            let separation =
                entityCount > 12 ? "nodesep=0.5; ranksep=0.9;" : "nodesep=0.4; ranksep=0.6;"
            placement = [
                "  graph [fontname=\"Helvetica\", fontsize=14, labelloc=t, splines=true, "
                    + "newrank=true, rankdir=LR, pad=0.3];",
                "  \(separation)",
            ]
        }
        return placement + [
            "  node [shape=plain, fontname=\"Helvetica\", fontsize=11];",
            "  edge [fontname=\"Helvetica\", fontsize=9, color=\"#34495e\", "
                + "fontcolor=\"#1f3a5f\", labelfontsize=9, labelfontcolor=\"#1f3a5f\", "
                + "labeldistance=2.5, labelangle=35];",
        ]
    }

    /// Whether `edge` ranks its ends (inheritance and inverse pairs do; a one-way
    /// relationship is drawn without moving its entities).
    static func constrains(_ edge: ModelDiagramEdge) -> Bool {
        if case .relationship(_, let inverse) = edge.kind, inverse == nil { return false }
        return true
    }

    /// Each edge's minimum length in ranks: the boxes hanging from one entity by nothing else
    /// (leaves) go one, two and three ranks after it in turn, as Graphviz's `unflatten` does,
    /// so that a hub's leaves do not all stand in one very wide rank.
    static func staggeredLengths(_ edges: [ModelDiagramEdge]) -> [Int] {
        var degree: [String: Int] = [:]
        for edge in edges where constrains(edge) {
            let (upper, lower) = ends(edge)
            degree[upper, default: 0] += 1
            degree[lower, default: 0] += 1
        }
        var leaves: [String: Int] = [:]
        return edges.map { edge in
            let (upper, lower) = ends(edge)
            guard constrains(edge), upper != lower, degree[lower] == 1 else { return 1 }
            defer { leaves[upper, default: 0] += 1 }
            return 1 + (leaves[upper] ?? 0) % 3
        }
    }

    /// The entity an edge ranks first (left) and the one it ranks after it.
    static func ends(_ edge: ModelDiagramEdge) -> (upper: String, lower: String) {
        edge.kind == .inheritance ? (edge.head, edge.tail) : (edge.tail, edge.head)
    }

    /// The DOT statement drawing `edge` between the nodes `tail` and `head`, at least
    /// `length` ranks long (in a layered layout).
    static func statement(_ edge: ModelDiagramEdge, tail: String, head: String, length: Int = 1)
        -> String
    {
        let extra = length > 1 ? ", minlen=\(length)" : ""
        switch edge.kind {
        case .inheritance:
            // Drawn from the parent so that it is laid out before (left of) its subentities.
            return "\(head) -> \(tail) [dir=back, arrowtail=empty, arrowsize=1.2, "
                + "color=\"#7f8c8d\", penwidth=1.4\(extra)];"
        case .relationship(let relationship, let inverse):
            var attributes = [
                "arrowhead=\(arrowhead(relationship))",
                "headlabel=<\(DOTText.html(relationship.name))>",
            ]
            if let inverse {
                attributes += [
                    "dir=both", "arrowtail=\(arrowhead(inverse))",
                    "taillabel=<\(DOTText.html(inverse.name))>",
                ]
            } else {
                attributes.append("constraint=false")
            }
            if relationship.isTransient { attributes.append("style=dashed") }
            return "\(tail) -> \(head) [\(attributes.joined(separator: ", "))\(extra)];"
        }
    }

    /// One arrowhead for a to-one relationship, two for a to-many one.
    static func arrowhead(_ relationship: Relationship) -> String {
        relationship.isToMany ? "normalnormal" : "normal"
    }
}
