import Foundation
import ObjectGraph
import Testing

@testable import ObjectGraphCLI

/// `objectgraph diagram`: the model's entity-relationship diagram as DOT, SVG or PNG.
@Suite("diagram command")
struct DiagramCommandTests {
    /// An abstract Person with Student and Teacher under it; Student.courses ↔ Course.students
    /// (to-many both ways), Teacher.classes ↔ Course.teacher (to-many, to-one) and
    /// Teacher.homeroom (to-one, no inverse).
    static let school = """
            <entity name="Person" representedClassName="Person" isAbstract="YES" syncable="YES">
                <attribute name="name" attributeType="String"/>
            </entity>
            <entity name="Student" representedClassName="Student" parentEntity="Person" syncable="YES">
                <attribute name="number" optional="YES" attributeType="Integer 32" defaultValueString="0" usesScalarValueType="YES"/>
                <relationship name="courses" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Course" inverseName="students" inverseEntity="Course"/>
            </entity>
            <entity name="Teacher" representedClassName="Teacher" parentEntity="Person" syncable="YES">
                <relationship name="classes" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Course" inverseName="teacher" inverseEntity="Course"/>
                <relationship name="homeroom" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Course"/>
            </entity>
            <entity name="Course" representedClassName="Course" syncable="YES">
                <attribute name="title" attributeType="String"/>
                <relationship name="students" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Student" inverseName="courses" inverseEntity="Student"/>
                <relationship name="teacher" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Teacher" inverseName="classes" inverseEntity="Teacher"/>
            </entity>
        """

    /// Graphviz's `dot`, when installed.
    static let graphviz = GraphvizRenderer(environment: ProcessInfo.processInfo.environment)

    @Test("boxes, to-one and to-many heads, inverse pairs as one line, inheritance, abstract")
    func dotStructure() throws {
        let files = try ValidateDescribeFiles()
        defer { files.remove() }
        let path = try files.model("School", Self.school)
        let result = ValidateDescribeFiles.run(["diagram", "--model", path])
        #expect(result.status == 0, "\(result.errors)")
        let lines = result.output.split(separator: "\n").map(String.init)
        #expect(lines.first == #"digraph "School" {"#)
        // Person e0, Student e1, Teacher e2, Course e3.
        let person = lines.filter { $0.hasPrefix("  e0 [label=<") }
        #expect(person.count == 1 && person[0].contains("<I>Person</I>"))
        #expect(result.output.contains("«abstract»"))
        let student = lines.filter { $0.hasPrefix("  e1 [label=<") }
        #expect(student.count == 1 && student[0].contains("<B>Student</B>"))
        #expect(result.output.contains(">Integer 32?<"))
        #expect(result.output.contains(">[Course]<"))
        let edges = Self.edges(in: result.output)
        #expect(edges.count == 5, "\(edges)")
        // Inheritance: drawn from the parent (so it ranks above), a hollow head at the parent.
        for child in ["e1", "e2"] {
            let link = edges["e0 -> \(child) inheritance"] ?? []
            #expect(link.contains("dir=back") && link.contains("arrowtail=empty"), "\(child)")
        }
        // One line per inverse pair, a head and a name at each end; two heads for to-many.
        let courses = edges["e1 -> e3 courses"] ?? []
        #expect(
            Set([
                "arrowhead=normalnormal", "dir=both", "arrowtail=normalnormal",
                "taillabel=<students>",
            ])
            .isSubset(of: courses), "\(courses)")
        let classes = edges["e2 -> e3 classes"] ?? []
        #expect(
            Set(["arrowhead=normalnormal", "dir=both", "arrowtail=normal", "taillabel=<teacher>"])
                .isSubset(of: classes), "\(classes)")
        let homeroom = edges["e2 -> e3 homeroom"] ?? []
        #expect(homeroom.contains("arrowhead=normal") && !homeroom.contains("dir=both"))
        #expect(edges["e3 -> e1 students"] == nil && edges["e3 -> e2 teacher"] == nil)
    }

    /// The edges of a DOT graph by `tail -> head name` (the head label's name, or
    /// `inheritance`), each with its attributes.
    static func edges(in dot: String) -> [String: Set<String>] {
        var found: [String: Set<String>] = [:]
        for line in dot.split(separator: "\n") where line.contains(" -> ") {
            guard let open = line.firstIndex(of: "["), let close = line.lastIndex(of: "]") else {
                continue
            }
            let ends = line[..<open].trimmingCharacters(in: .whitespaces)
            let attributes = Set(
                line[line.index(after: open)..<close].components(separatedBy: ", "))
            let label = attributes.first { $0.hasPrefix("headlabel=<") }
            let name = label.map { String($0.dropFirst(11).dropLast()) } ?? "inheritance"
            found["\(ends) \(name)"] = attributes
        }
        return found
    }

    @Test("an inverse declared on the destination's parent pairs; a one-sided inverse does not")
    func inversePairing() throws {
        let files = try ValidateDescribeFiles()
        defer { files.remove() }
        let path = try files.model(
            "Tree",
            """
                <entity name="Node" representedClassName="Node" isAbstract="YES" syncable="YES">
                    <relationship name="folder" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Folder" inverseName="children" inverseEntity="Folder"/>
                </entity>
                <entity name="Folder" representedClassName="Folder" parentEntity="Node" syncable="YES">
                    <relationship name="children" optional="YES" toMany="YES" deletionRule="Cascade" destinationEntity="Node" inverseName="folder" inverseEntity="Node"/>
                    <relationship name="pinned" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Node" inverseName="folder" inverseEntity="Node"/>
                    <relationship name="friends" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Folder" inverseName="friends" inverseEntity="Folder"/>
                </entity>
            """)
        let model = try EntityModel(contentsOf: URL(fileURLWithPath: path))
        let edges = ModelDiagramEdge.edges(of: model)
        let pairs = edges.compactMap { edge -> String? in
            guard case .relationship(let relationship, let inverse) = edge.kind else { return nil }
            return "\(edge.tail).\(relationship.name)/\(inverse?.name ?? "-")"
        }
        // folder ↔ children once; pinned names folder as its inverse but folder names
        // children: drawn alone; friends is its own inverse: one line, one name.
        // The to-one ↔ to-many pair is drawn from the to-many side.
        #expect(pairs == ["Folder.children/folder", "Folder.pinned/-", "Folder.friends/-"])
        #expect(edges.contains(ModelDiagramEdge(tail: "Folder", head: "Node", kind: .inheritance)))
    }

    @Test("names with <, &, quotes and backslashes are escaped and Graphviz reads them")
    func escaping() throws {
        #expect(DOTText.quoted(#"a "b" \N"#) == #""a \"b\" \\N""#)
        #expect(DOTText.quoted("two\nlines") == #""two\nlines""#)
        #expect(DOTText.html(#"<B>&"'"#) == "&lt;B&gt;&amp;&quot;&#39;")
        #expect(DOTText.html("tab\there") == "tab here")
        let files = try ValidateDescribeFiles()
        defer { files.remove() }
        let path = try files.model(
            "Odd \"model\" \\",
            """
                <entity name="A&lt;B&amp;C" representedClassName="A" syncable="YES">
                    <attribute name="x&gt;&quot;y\\N" optional="YES" attributeType="String"/>
                    <relationship name="to&lt;/TD&gt;" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="A&lt;B&amp;C"/>
                </entity>
            """)
        let result = ValidateDescribeFiles.run(["diagram", "--model", path])
        #expect(result.status == 0, "\(result.errors)")
        #expect(result.output.hasPrefix(#"digraph "Odd \"model\" \\" {"#))
        #expect(result.output.contains("<B>A&lt;B&amp;C</B>"))
        #expect(result.output.contains("x&gt;&quot;y\\N"))
        #expect(result.output.contains("headlabel=<to&lt;/TD&gt;>"))
        guard Self.graphviz.program != nil else { return }
        let svg = String(
            decoding: try Self.graphviz.render(result.output, format: "svg"), as: UTF8.self)
        #expect(svg.contains("A&lt;B&amp;C"))
        #expect(svg.contains("to&lt;/TD&gt;"))
    }

    @Test(
        "svg to standard output and png to a file with Graphviz",
        .enabled(if: graphviz.program != nil))
    func rendered() throws {
        let files = try ValidateDescribeFiles()
        defer { files.remove() }
        let path = try files.model("School", Self.school)
        let svg = ValidateDescribeFiles.run(["diagram", "--model", path, "--format", "svg"])
        #expect(svg.status == 0, "\(svg.errors)")
        #expect(svg.output.contains("<svg") && svg.output.contains("courses"))
        let png = files.folder.appendingPathComponent("School.png")
        let written = ValidateDescribeFiles.run(["diagram", "--model", path, "--output", png.path])
        #expect(written.status == 0, "\(written.errors)")
        #expect(
            try Data(contentsOf: png).prefix(8)
                == Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]))
        let dot = files.folder.appendingPathComponent("School.gv")
        #expect(
            ValidateDescribeFiles.run(["diagram", "--model", path, "--output", dot.path]).status
                == 0)
        #expect(try String(contentsOf: dot, encoding: .utf8).hasPrefix("digraph"))
    }

    @Test("without Graphviz, svg and png fail naming the package; dot still works")
    func graphvizMissing() throws {
        let files = try ValidateDescribeFiles()
        defer { files.remove() }
        let path = try files.model("School", Self.school)
        let io = BufferIO(environment: ["PATH": files.folder.path])
        let status = CommandLineTool.run(["diagram", "--model", path, "--format", "svg"], io: io)
        #expect(status == 2)
        #expect(io.errorOutput.contains("'graphviz'") && io.errorOutput.contains("--format dot"))
        #expect(io.output.isEmpty)
        let dot = BufferIO(environment: ["PATH": files.folder.path])
        #expect(CommandLineTool.run(["diagram", "--model", path], io: dot) == 0)
        #expect(dot.output.hasPrefix("digraph"))
    }

    @Test("usage errors exit 2 with a hint")
    func usageErrors() throws {
        let files = try ValidateDescribeFiles()
        defer { files.remove() }
        let path = try files.model("School", Self.school)
        let cases: [([String], String)] = [
            (["diagram"], "missing --model"),
            (["diagram", "--model", path, "--format", "jpeg"], "unknown format 'jpeg'"),
            (["diagram", "--model", path, "--format", "png"], "png needs --output"),
            (["diagram", "--model", path, "--output", "x.pdf"], "cannot tell the format"),
            (["diagram", "--model", path, "extra"], "unexpected argument 'extra'"),
            (["diagram", "--model"], "--model needs a value"),
            (["diagram", "--model", files.folder.appendingPathComponent("none").path], "error:"),
        ]
        for (arguments, message) in cases {
            let result = ValidateDescribeFiles.run(arguments)
            #expect(result.status == 2, "\(arguments)")
            #expect(result.errors.contains(message), "\(arguments): \(result.errors)")
        }
        #expect(ValidateDescribeFiles.run(["diagram", "--help"]).output.contains("USAGE"))
    }

    @Test(
        "every model in Models/ and the corpus's largest lays out with Graphviz",
        .enabled(if: graphviz.program != nil))
    func modelsLayOut() throws {
        var paths = try FileManager.default.contentsOfDirectory(
            atPath: packageRoot.appendingPathComponent("Models").path
        ).filter { $0.hasSuffix(".xcdatamodeld") }.map { "Models/\($0)" }
        if let corpus = GeneratedCodeCorpusTests.corpus {
            paths.append(
                corpus.appendingPathComponent(
                    "xcdatamodel/31-xikolo/xikolo.xcdatamodeld/xikolo 16.xcdatamodel"
                ).path)
        }
        #expect(paths.count >= 4)
        for path in paths {
            let url =
                path.hasPrefix("/")
                ? URL(fileURLWithPath: path) : packageRoot.appendingPathComponent(path)
            guard FileManager.default.fileExists(atPath: url.path) else { continue }
            let model = try EntityModel(contentsOf: url)
            let dot = ModelDiagram(
                model: model, title: url.deletingPathExtension().lastPathComponent
            ).dot
            let svg = String(decoding: try Self.graphviz.render(dot, format: "svg"), as: UTF8.self)
            for entity in model.entities {
                #expect(svg.contains(">\(DOTText.html(entity.name))<"), "\(path): \(entity.name)")
            }
        }
    }

    @Test(
        "a model of 40 entities lays out with every entity and line",
        .enabled(if: graphviz.program != nil))
    func fortyEntities() throws {
        let files = try ValidateDescribeFiles()
        defer { files.remove() }
        let path = try files.model("Forty", Self.fortyEntityModel)
        let model = try EntityModel(contentsOf: URL(fileURLWithPath: path))
        #expect(model.entities.count == 40)
        let dot = ModelDiagram(model: model, title: "Forty", layout: .layered).dot
        #expect(dot.split(separator: "\n").filter { $0.contains(" -> ") }.count == 39 + 39 + 6)
        // One-way links do not rank their ends; leaves of one entity are staggered.
        #expect(dot.components(separatedBy: "constraint=false").count - 1 == 39)
        #expect(dot.contains("minlen=2") && dot.contains("minlen=3"))
        let svg = String(decoding: try Self.graphviz.render(dot, format: "svg"), as: UTF8.self)
        #expect(svg.components(separatedBy: "class=\"node\"").count - 1 == 40)
        #expect(svg.components(separatedBy: "class=\"edge\"").count - 1 == 39 + 39 + 6)
    }

    @Test(
        "over 30 entities are laid out by springs: no box overlaps, about as wide as tall",
        .enabled(if: graphviz.program != nil))
    func fortyEntitiesSpring() throws {
        let files = try ValidateDescribeFiles()
        defer { files.remove() }
        let path = try files.model("Forty", Self.fortyEntityModel)
        let model = try EntityModel(contentsOf: URL(fileURLWithPath: path))
        let diagram = ModelDiagram(model: model, title: "Forty")
        #expect(diagram.resolvedLayout == .spring)
        let dot = diagram.dot
        #expect(dot.contains("layout=neato") && dot.contains("overlap=false"))
        #expect(!dot.contains("rankdir") && !dot.contains("minlen"))
        let svg = String(decoding: try Self.graphviz.render(dot, format: "svg"), as: UTF8.self)
        let boxes = Self.nodeBoxes(in: svg)
        #expect(boxes.count == 40)
        for (index, box) in boxes.enumerated() {
            for other in boxes[(index + 1)...] {
                #expect(!box.intersects(other), "\(box) overlaps \(other)")
            }
        }
        let size = try #require(Self.size(of: svg))
        #expect(size.width / size.height > 0.5 && size.width / size.height < 2, "\(size)")
        // The columns this model had before: a strip more than three times as tall as wide.
        let layered = ModelDiagram(model: model, title: "Forty", layout: .layered).dot
        let strip = try #require(
            Self.size(
                of: String(
                    decoding: try Self.graphviz.render(layered, format: "svg"), as: UTF8.self)))
        #expect(strip.height / strip.width > 2, "\(strip)")
        // Up to 30 entities stay in columns; the option chooses either way.
        let small = try EntityModel(
            contentsOf: URL(fileURLWithPath: try files.model("School", Self.school)))
        #expect(ModelDiagram(model: small).resolvedLayout == .layered)
        #expect(ModelDiagram(model: small, layout: .spring).dot.contains("layout=neato"))
        let chosen = ValidateDescribeFiles.run(
            ["diagram", "--model", path, "--layout", "layered", "--format", "dot"])
        #expect(chosen.status == 0 && chosen.output.contains("rankdir=LR"), "\(chosen.errors)")
        let wrong = ValidateDescribeFiles.run(["diagram", "--model", path, "--layout", "grid"])
        #expect(wrong.status == 2 && wrong.errors.contains("unknown layout 'grid'"))
    }

    /// The bounding box of each entity's box (its outer polygon) in an SVG Graphviz drew.
    static func nodeBoxes(in svg: String) -> [CGRect] {
        svg.components(separatedBy: "class=\"node\"").dropFirst().compactMap { node in
            guard let start = node.range(of: "points=\""),
                let end = node[start.upperBound...].firstIndex(of: "\"")
            else { return nil }
            let points = node[start.upperBound..<end].split(separator: " ").compactMap {
                pair -> CGPoint? in
                let parts = pair.split(separator: ",").compactMap { Double($0) }
                return parts.count == 2 ? CGPoint(x: parts[0], y: parts[1]) : nil
            }
            guard let minX = points.map(\.x).min(), let maxX = points.map(\.x).max(),
                let minY = points.map(\.y).min(), let maxY = points.map(\.y).max()
            else { return nil }
            return CGRect(x: minX, y: minY, width: maxX - minX, height: maxY - minY)
        }
    }

    /// The picture's size in points, from the SVG's `width="…pt" height="…pt"`.
    static func size(of svg: String) -> CGSize? {
        func number(_ name: String) -> Double? {
            guard let start = svg.range(of: "\(name)=\""),
                let end = svg[start.upperBound...].range(of: "pt\"")
            else { return nil }
            return Double(svg[start.upperBound..<end.lowerBound])
        }
        guard let width = number("width"), let height = number("height") else { return nil }
        return CGSize(width: width, height: height)
    }

    /// Forty entities E0 … E39, each with three attributes, in a tree of to-many `items` ↔
    /// to-one `owner` pairs (E(n) owns E(3n+1) … E(3n+3)), with a to-one `link` (no inverse)
    /// from each to E(7n mod 40); E1 … E6 inherit from the abstract E0.
    static var fortyEntityModel: String {
        var body = ""
        for index in 0..<40 {
            let parent = (1...6).contains(index) ? " parentEntity=\"E0\"" : ""
            let abstract = index == 0 ? " isAbstract=\"YES\"" : ""
            body +=
                "<entity name=\"E\(index)\" representedClassName=\"E\(index)\"\(parent)\(abstract)>\n"
            body +=
                "<attribute name=\"title\(index)\" optional=\"YES\" attributeType=\"String\"/>\n"
            body +=
                "<attribute name=\"count\(index)\" optional=\"YES\" attributeType=\"Integer 64\"/>\n"
            body += "<attribute name=\"date\(index)\" optional=\"YES\" attributeType=\"Date\"/>\n"
            for child in stride(from: 3 * index + 1, to: min(3 * index + 4, 40), by: 1) {
                body +=
                    "<relationship name=\"items\(child)\" optional=\"YES\" toMany=\"YES\" "
                    + "deletionRule=\"Nullify\" destinationEntity=\"E\(child)\" "
                    + "inverseName=\"owner\(child)\" inverseEntity=\"E\(child)\"/>\n"
            }
            if index > 0 {
                let owner = (index - 1) / 3
                body +=
                    "<relationship name=\"owner\(index)\" optional=\"YES\" maxCount=\"1\" "
                    + "deletionRule=\"Nullify\" destinationEntity=\"E\(owner)\" "
                    + "inverseName=\"items\(index)\" inverseEntity=\"E\(owner)\"/>\n"
                body +=
                    "<relationship name=\"link\(index)\" optional=\"YES\" maxCount=\"1\" "
                    + "deletionRule=\"Nullify\" destinationEntity=\"E\(index * 7 % 40)\"/>\n"
            }
            body += "</entity>\n"
        }
        return body
    }
}
