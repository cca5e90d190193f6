import Foundation
import ObjectGraphCLI
import Testing

/// The command the ObjectGraphCodegen build-tool plugin gave SwiftPM for `Examples/School`, as
/// the build's llbuild manifest (`.build/debug.yaml` or `release.yaml`) holds it after a build
/// of the package: its inputs, output and command line.
struct PluginBuildCommand {
    var inputs: [String] = []
    var outputs: [String] = []
    var arguments: [String] = []

    /// School's codegen command in the package's manifests; `nil` when none holds it (the
    /// package was not built here).
    static let school: PluginBuildCommand? = {
        for manifest in ["debug.yaml", "release.yaml"] {
            let url = packageRoot.appendingPathComponent(".build/\(manifest)")
            guard let text = try? String(contentsOf: url, encoding: .utf8),
                let command = PluginBuildCommand(
                    manifest: text, named: "Generating ObjectGraph classes for School.xcdatamodeld")
            else { continue }
            return command
        }
        return nil
    }()

    /// The command whose name starts with `name` in the llbuild `manifest`: its `inputs`,
    /// `outputs` and `args` lines are JSON arrays of strings.
    init?(manifest: String, named name: String) {
        let lines = manifest.split(separator: "\n", omittingEmptySubsequences: false)
        guard let start = lines.firstIndex(where: { $0.hasPrefix("  \"\(name)") }) else {
            return nil
        }
        for line in lines[(start + 1)...] {
            let trimmed = line.drop { $0 == " " }
            if trimmed.isEmpty || line.hasPrefix("  \"") { break }
            guard let colon = trimmed.firstIndex(of: ":") else { continue }
            let key = trimmed[..<colon]
            let value = Data(trimmed[trimmed.index(after: colon)...].utf8)
            guard let list = try? JSONDecoder().decode([String].self, from: value) else {
                continue
            }
            switch key {
            case "inputs": inputs = list
            case "outputs": outputs = list
            case "args": arguments = list
            default: break
            }
        }
        guard !arguments.isEmpty else { return nil }
    }

    /// The value after `option` on the command line.
    func value(of option: String) -> String? {
        guard let index = arguments.firstIndex(of: option), index + 1 < arguments.count else {
            return nil
        }
        return arguments[index + 1]
    }
}

/// The ObjectGraphCodegen build-tool plugin, through what it made SwiftPM do when the package
/// (and so `Examples/School`, which uses it) was built.
@Suite(
    "The ObjectGraphCodegen build-tool plugin",
    .enabled(if: PluginBuildCommand.school != nil, "Examples/School was not built here"))
struct CodegenPluginTests {
    @Test("the command runs objectgraph codegen on the model, internal, into one named file")
    func commandLine() throws {
        let command = try #require(PluginBuildCommand.school)
        #expect(command.arguments.first?.hasSuffix("objectgraph-tool") == true)
        #expect(command.arguments.dropFirst().first == "codegen")
        #expect(
            command.value(of: "--model")?.hasSuffix("Examples/School/School.xcdatamodeld") == true)
        #expect(command.value(of: "--access") == "internal")
        #expect(command.value(of: "--single-file") == "School+ObjectGraph.swift")
        let output = try #require(command.value(of: "--output"))
        #expect(command.outputs == [output + "/School+ObjectGraph.swift"])
    }

    @Test("the command's inputs are the model's files, so editing the model generates again")
    func inputsAreTheModelFiles() throws {
        let command = try #require(PluginBuildCommand.school)
        // School.xcdatamodeld is a link to Models/: its files must be named, not the link
        // alone (a folder's modification time does not change when a file in it is edited).
        #expect(command.inputs.contains { $0.hasSuffix("School.xcdatamodel/contents") })
        #expect(command.inputs.contains { $0.hasSuffix("School.xcdatamodeld/.xccurrentversion") })
    }

    @Test("the generated file is what objectgraph codegen writes for the same model, byte for byte")
    func sameAsCodegen() throws {
        let command = try #require(PluginBuildCommand.school)
        let generated = try String(
            contentsOfFile: try #require(command.outputs.first), encoding: .utf8)
        let files = try ValidateDescribeFiles()
        defer { files.remove() }
        let output = files.folder.appendingPathComponent("out")
        let io = BufferIO()
        let arguments = Array(command.arguments.dropFirst(2))
        var rewritten = arguments
        if let index = rewritten.firstIndex(of: "--output") { rewritten[index + 1] = output.path }
        #expect(CommandLineTool.run(["codegen"] + rewritten, io: io) == 0, "\(io.errorOutput)")
        let written = try String(
            contentsOf: output.appendingPathComponent("School+ObjectGraph.swift"), encoding: .utf8)
        #expect(written == generated)
        #expect(generated.contains("class Course: ManagedObject"))
    }
}
