import Foundation
import ObjectGraph

/// `objectgraph codegen --model MODEL [--output DIR] [--access public|internal] [--all]
/// [--single-file NAME.swift]`: Swift classes for a model's entities (see
/// ``SwiftCodeGenerator``).
struct CodegenCommand: Command {
    static let name = "codegen"
    static let abstract = "Generate typed Swift classes for a model's entities"
    static let help = """
        OVERVIEW: Generate typed Swift classes for a model's entities.

        Each entity's code generation setting in the model decides, as in Xcode:
          Class Definition     the whole class (<Class>+ObjectGraph.swift)
          Category/Extension   an extension with the properties, for a class you write
          Manual/None          nothing (unless --all)
        Classes have typed properties (attributes, to-one relationships as the related class,
        to-many as RelatedSet or, ordered, RelatedList), Xcode's accessors (addToX, removeFromX,
        insertIntoX), entityName, fetchRequest() and key-path names; <Model>ModelClasses.swift
        registers them, which ObjectGraph does by itself the first time it meets one.
        Warnings (names escaped or renamed, transformable types) go to standard error.

        USAGE: objectgraph codegen --model <path> [--output <dir>] [--access public|internal] [--all]
                                   [--single-file <name>.swift]

        OPTIONS:
          --model <path>      A .xcdatamodeld bundle (its current version), a .xcdatamodel
                              folder, or a contents file.
          --output <dir>      Where to write the files (made if missing; default: .).
          --access <level>    public (default) or internal declarations.
          --all               Generate classes for Manual/None entities too.
          --single-file <name>
                              Write everything into one file <dir>/<name>, always (empty of
                              declarations when no entity asks for code): the form a build
                              tool (the ObjectGraphCodegen SwiftPM plugin) declares up front.
          -h, --help          Show this help.

        EXIT STATUS:
          0  Success (warnings may have been printed).
          2  Usage error, the model cannot be read, or a file cannot be written.

        """

    static func run(_ arguments: [String], io: CommandIO) -> Int32 {
        var modelPath: String?
        var output = "."
        var access = SwiftCodeGenerator.Access.public
        var all = false
        var singleFile: String?
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            switch argument {
            case "--all": all = true
            case "--model", "--output", "--access", "--single-file":
                guard index < arguments.count else {
                    return usageError("\(argument) needs a value", io: io)
                }
                let value = arguments[index]
                index += 1
                if argument == "--model" {
                    modelPath = value
                } else if argument == "--output" {
                    output = value
                } else if argument == "--single-file" {
                    guard !value.isEmpty, !value.contains("/") else {
                        return usageError("--single-file is a file name, not '\(value)'", io: io)
                    }
                    singleFile = value
                } else if let level = SwiftCodeGenerator.Access(rawValue: value) {
                    access = level
                } else {
                    return usageError("--access is public or internal, not '\(value)'", io: io)
                }
            default: return usageError("unknown argument '\(argument)'", io: io)
            }
        }
        guard let modelPath else { return usageError("missing --model <path>", io: io) }
        let model: EntityModel
        do {
            model = try EntityModel(contentsOf: URL(fileURLWithPath: modelPath))
        } catch {
            io.writeError("\(modelPath): error: \(error)\n")
            return ExitStatus.usage
        }
        var generator = SwiftCodeGenerator(
            model: model, modelName: modelName(of: modelPath), access: access, all: all)
        let generated = generator.files()
        var files = generated
        if let singleFile { files = [combined(generated, named: singleFile, model: modelPath)] }
        for warning in generator.warnings { io.writeError("warning: \(warning)\n") }
        for declaration in generator.userClasses {
            io.writeError("note: a Category/Extension entity: write its class: \(declaration)\n")
        }
        let folder = URL(fileURLWithPath: output)
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            for file in files {
                let url = folder.appendingPathComponent(file.name)
                try Data(file.text.utf8).write(to: url, options: .atomic)
                io.write("\(url.path)\n")
            }
        } catch {
            io.writeError("\(output): error: cannot write the generated files: \(error)\n")
            return ExitStatus.usage
        }
        if generated.isEmpty {
            io.writeError(
                "note: no entity of the model asks for generated code (use --all for every one)\n")
        }
        return ExitStatus.success
    }

    /// `files` as one Swift file `name` (every file's text after a header; a file may repeat
    /// imports, which Swift allows).
    static func combined(
        _ files: [SwiftCodeGenerator.File], named name: String, model: String
    ) -> SwiftCodeGenerator.File {
        let header = "// Generated by `objectgraph codegen --single-file` from \(model).\n"
        return SwiftCodeGenerator.File(
            name: name, text: ([header] + files.map(\.text)).joined(separator: "\n"))
    }

    /// The model's name: the `.xcdatamodeld` bundle's (for a version inside one too), else the
    /// `.xcdatamodel` folder's.
    static func modelName(of path: String) -> String {
        var url = URL(fileURLWithPath: path).standardizedFileURL
        if url.lastPathComponent == "contents" { url.deleteLastPathComponent() }
        let parent = url.deletingLastPathComponent()
        if url.pathExtension == "xcdatamodel", parent.pathExtension == "xcdatamodeld" {
            url = parent
        }
        return url.deletingPathExtension().lastPathComponent
    }
}
