import Foundation
import PackagePlugin

/// Generates the Swift classes of every `.xcdatamodeld` (or lone `.xcdatamodel`) among a
/// target's files at build time, as Xcode does: `objectgraph codegen --single-file` writes
/// `<Model>+ObjectGraph.swift` into the plugin's work directory, which the target compiles.
///
/// ```swift
/// .executableTarget(
///     name: "School", dependencies: ["ObjectGraph"],
///     plugins: [.plugin(name: "ObjectGraphCodegen", package: "ObjectGraph")])
/// ```
///
/// Entities generate as their code-generation setting says (Class Definition, Category/Extension,
/// Manual/None); declarations are `internal`, for the target's own use.
@main
struct ObjectGraphCodegenPlugin: BuildToolPlugin {
    /// One build command per model found in `target`'s files.
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        guard let module = target as? SourceModuleTarget else { return [] }
        let tool = try context.tool(named: "objectgraph")
        return Self.models(in: module.sourceFiles.map(\.url)).map { model in
            let name = model.deletingPathExtension().lastPathComponent
            let output = context.pluginWorkDirectoryURL.appending(path: name)
            let file = "\(name)+ObjectGraph.swift"
            return .buildCommand(
                displayName: "Generating ObjectGraph classes for \(model.lastPathComponent)",
                executable: tool.url,
                arguments: [
                    "codegen", "--model", model.path(), "--output", output.path(),
                    "--access", "internal", "--single-file", file,
                ],
                inputFiles: Self.contents(of: model),
                outputFiles: [output.appending(path: file)])
        }
    }

    /// The models among `files`: `.xcdatamodeld` bundles, and `.xcdatamodel` folders not
    /// inside one (SwiftPM may list a bundle or the files inside it).
    static func models(in files: [URL]) -> [URL] {
        var found: [URL] = []
        for file in files {
            var url = file
            while url.pathComponents.count > 1 {
                let parent = url.deletingLastPathComponent()
                if url.pathExtension == "xcdatamodeld"
                    || (url.pathExtension == "xcdatamodel"
                        && parent.pathExtension != "xcdatamodeld")
                {
                    break
                }
                url = parent
            }
            let isModel = ["xcdatamodeld", "xcdatamodel"].contains(url.pathExtension)
            if isModel, !found.contains(url) { found.append(url) }
        }
        return found
    }

    /// The files inside `model` (its `contents` files, `.xccurrentversion`), so an edit reruns
    /// the command. A model that is a link (`Examples/School`'s points into `Models/`) is
    /// walked where it points: the enumerator does not follow a link it starts at, and the link
    /// alone as the input would not rerun the command when a file in the model is edited.
    static func contents(of model: URL) -> [URL] {
        guard
            let walker = FileManager.default.enumerator(
                at: model.resolvingSymlinksInPath(), includingPropertiesForKeys: [.isRegularFileKey]
            )
        else { return [model] }
        var files: [URL] = []
        for case let url as URL in walker
        where (try? url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true {
            files.append(url)
        }
        return files.isEmpty ? [model] : files
    }
}
