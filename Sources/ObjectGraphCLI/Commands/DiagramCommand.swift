import Foundation
import ObjectGraph

/// `objectgraph diagram --model MODEL [--format svg|dot|png] [--layout L] [--output FILE]`:
/// the model's entity-relationship diagram (``ModelDiagram``), as DOT or laid out by Graphviz.
struct DiagramCommand: Command {
    static let name = "diagram"
    static let abstract = "Draw a model's entity-relationship diagram (DOT, SVG or PNG)"
    static let help = """
        OVERVIEW: Draw a model's entity-relationship diagram, as Xcode's graph editor does.

        Each entity is a box with its attributes (and types), relationships ([Dest] for
        to-many) and fetched properties. A relationship is a line with its name at the end it
        reaches, one arrowhead for to-one and two for to-many; an inverse pair is one line
        with a head and a name at each end. A grey line with a hollow triangle points from a
        subentity to its parent. Abstract entities have an italic name and «abstract».

        DOT is written by objectgraph itself; SVG and PNG are laid out by Graphviz's 'dot'
        program (Debian package 'graphviz'), which must be installed for them. While Graphviz
        works, the time it has taken shows on standard error (a bar on a terminal, a line
        after a second elsewhere, nothing with --quiet).

        A model of up to 30 entities is laid out in columns, parents and owners first; a
        larger one with related boxes pulled together and no two boxes overlapping, so that
        it stays about as wide as it is tall.

        USAGE: objectgraph diagram --model <model> [--format svg|dot|png]
                                   [--layout automatic|layered|spring] [--output <file>]

        OPTIONS:
          --model <model>     The .xcdatamodeld bundle (its current version), a .xcdatamodel
                              folder or a contents file.
          --format <format>   dot, svg or png. Default: from the output's extension (.dot,
                              .gv, .svg, .png), else dot.
          --layout <layout>   layered (columns, Graphviz dot), spring (Graphviz neato,
                              no overlaps) or automatic (layered up to 30 entities,
                              spring beyond). Default: automatic.
          --output <file>     Where to write the diagram (replaced if it exists). Default:
                              standard output (not for png).
          -q, --quiet         Show no progress.
          -h, --help          Show this help.

        EXIT STATUS:
          0  The diagram was written.
          2  Usage error, the model cannot be read, Graphviz is missing or fails, or the
             output cannot be written (the reason is on stderr).

        EXAMPLE:
          objectgraph diagram --model Models/School.xcdatamodeld --output School.svg

        """

    /// The formats, by name.
    static let formats = ["dot", "svg", "png"]

    static func run(_ arguments: [String], io: CommandIO) -> Int32 {
        var values: [String: String] = [:]
        var quiet = false
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if argument == "--quiet" || argument == "-q" {
                quiet = true
                continue
            }
            guard ["--model", "--format", "--layout", "--output"].contains(argument) else {
                return usageError(
                    argument.hasPrefix("-")
                        ? "unknown option '\(argument)'" : "unexpected argument '\(argument)'",
                    io: io)
            }
            guard index < arguments.count else {
                return usageError("\(argument) needs a value", io: io)
            }
            values[argument] = arguments[index]
            index += 1
        }
        guard let modelPath = values["--model"] else {
            return usageError("missing --model <model>", io: io)
        }
        let output = values["--output"]
        let fromExtension = output.map { URL(fileURLWithPath: $0).pathExtension.lowercased() }
        let format = values["--format"] ?? (fromExtension == "gv" ? "dot" : fromExtension) ?? "dot"
        guard formats.contains(format) else {
            if values["--format"] == nil {
                return usageError(
                    "cannot tell the format from '\(output ?? "")'; pass --format dot|svg|png",
                    io: io)
            }
            return usageError("unknown format '\(format)' (dot, svg, png)", io: io)
        }
        if format == "png" && output == nil {
            return usageError("png needs --output <file>", io: io)
        }
        guard let layout = ModelDiagram.Layout(rawValue: values["--layout"] ?? "automatic") else {
            return usageError(
                "unknown layout '\(values["--layout"] ?? "")' (automatic, layered, spring)", io: io)
        }
        do {
            let url = URL(fileURLWithPath: modelPath)
            let model = try EntityModel(contentsOf: url)
            let title = url.standardizedFileURL.deletingPathExtension().lastPathComponent
            let diagram = ModelDiagram(
                model: model, title: title == "contents" ? nil : title, layout: layout)
            let dot = diagram.dot
            let data: Data
            if format == "dot" {
                data = Data(dot.utf8)
            } else {
                let display = ProgressDisplay(
                    command: Self.name, io: io, mode: ProgressDisplay.mode(quiet: quiet, io: io))
                defer { display.finish() }
                let engine = diagram.resolvedLayout == .spring ? "neato" : "dot"
                let count = model.entities.count
                let working = ProgressDisplay.Report(
                    fraction: nil, counts: nil, unit: "",
                    detail: "laying out \(count) \(count == 1 ? "entity" : "entities")"
                        + " (Graphviz \(engine))")
                data = try display.showWhile(working) {
                    try GraphvizRenderer(environment: io.environment).render(dot, format: format)
                }
            }
            if let output {
                try data.write(to: URL(fileURLWithPath: output), options: .atomic)
            } else {
                io.write(String(decoding: data, as: UTF8.self))
            }
            return ExitStatus.success
        } catch {
            io.writeError("error: \(error)\n")
            return ExitStatus.usage
        }
    }
}
