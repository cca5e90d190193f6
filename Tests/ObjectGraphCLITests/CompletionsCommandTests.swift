import Foundation
import Testing

@testable import ObjectGraphCLI

/// `objectgraph --version` and `objectgraph completions bash|zsh|fish`.
@Suite("version and completions")
struct CompletionsCommandTests {
    /// The commands completions list: every one but the hidden `_…` ones.
    static var listed: [any Command.Type] {
        CommandLineTool.commands.filter { !$0.name.hasPrefix("_") }
    }

    @Test("--version prints the one version constant, which README names")
    func version() throws {
        let result = ValidateDescribeFiles.run(["--version"])
        #expect(result.status == 0)
        #expect(result.output == "objectgraph \(ToolVersion.current)\n")
        let readme = try String(
            contentsOf: packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
        #expect(readme.contains("objectgraph \(ToolVersion.current)"))
        #expect(ValidateDescribeFiles.run(["--help"]).output.contains("--version"))
    }

    @Test("options, values and subcommands are read from each command's help")
    func syntaxFromHelp() throws {
        let syntaxes = CompletionScript.syntaxes
        #expect(syntaxes.map { $0.name } == Self.listed.map { $0.name })
        let byName = Dictionary(
            syntaxes.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        let validate = try #require(byName["validate"])
        let validateNames = validate.options.map { $0.names }
        #expect(
            validateNames == [
                ["--format"], ["--warnings-as-errors"], ["--all-versions"], ["-h", "--help"],
            ])
        let formatChoices = validate.options.first?.choices
        #expect(formatChoices == ["text", "json"])
        #expect(validate.subcommands.isEmpty)
        let defaults = try #require(byName["defaults"])
        #expect(defaults.subcommands == ["read", "read-type", "write", "delete"])
        let keychain = try #require(byName["keychain"])
        let service = keychain.options.filter { $0.names == ["-s"] }.map { $0.value }
        #expect(service == ["<service>"])
        #expect(keychain.subcommands.contains("create-key-file"))
        let diagram = try #require(byName["diagram"])
        let diagramFormats = diagram.options.filter { $0.names == ["--format"] }.map { $0.choices }
        #expect(diagramFormats == [["svg", "dot", "png"]])
        // Every listed command has --help, so every command's OPTIONS section was found.
        for syntax in syntaxes {
            let names = syntax.options.flatMap { $0.names }
            #expect(names.contains("--help"), "\(syntax.name)")
        }
    }

    @Test("the bash script is valid bash and completes every command and its options")
    func bash() throws {
        let result = ValidateDescribeFiles.run(["completions", "bash"])
        #expect(result.status == 0, "\(result.errors)")
        let files = try ValidateDescribeFiles()
        defer { files.remove() }
        let script = try files.file("objectgraph.bash", result.output)
        let check = try runProcess(URL(fileURLWithPath: "/bin/bash"), ["-n", script])
        #expect(check.status == 0, "\(check.errors)")
        for command in Self.listed {
            #expect(result.output.contains("        \(command.name))"), "\(command.name)")
        }
        // What bash offers, asked the way it asks.
        func complete(_ words: [String]) throws -> [String] {
            let line = words.map { "'\($0)'" }.joined(separator: " ")
            let driver = try files.file(
                "driver.bash",
                """
                source '\(script)'
                COMP_WORDS=(\(line)); COMP_CWORD=\(words.count - 1)
                _objectgraph
                printf '%s\\n' "${COMPREPLY[@]}"
                """)
            let run = try runProcess(URL(fileURLWithPath: "/bin/bash"), [driver], in: files.folder)
            #expect(run.status == 0, "\(run.errors)")
            return run.output.split(separator: "\n").map(String.init)
        }
        let first = try complete(["objectgraph", ""])
        #expect(first == Self.listed.map { $0.name } + ["--help", "--version"])
        #expect(try complete(["objectgraph", "diagram", "--f"]) == ["--format"])
        #expect(try complete(["objectgraph", "diagram", "--format", ""]) == ["svg", "dot", "png"])
        #expect(try complete(["objectgraph", "defaults", "re"]) == ["read", "read-type"])
        #expect(try complete(["objectgraph", "migrate", "--q"]) == ["--quiet"])
    }

    @Test("zsh and fish scripts name every command and option", arguments: ["zsh", "fish"])
    func otherShells(_ shell: String) throws {
        let result = ValidateDescribeFiles.run(["completions", shell])
        #expect(result.status == 0, "\(result.errors)")
        for syntax in CompletionScript.syntaxes {
            #expect(result.output.contains(syntax.name), "\(syntax.name)")
            for option in syntax.options {
                for name in option.names {
                    let spelled =
                        shell == "zsh"
                        ? "'\(name)["
                        : name.hasPrefix("--") ? "-l \(name.dropFirst(2))" : "\(name.dropFirst())"
                    #expect(result.output.contains(spelled), "\(syntax.name) \(name)")
                }
            }
        }
        // Checked by the shell itself where it is installed.
        let program = URL(fileURLWithPath: "/usr/bin/\(shell)")
        if FileManager.default.isExecutableFile(atPath: program.path) {
            let files = try ValidateDescribeFiles()
            defer { files.remove() }
            let check = try runProcess(program, ["-n", try files.file("script", result.output)])
            #expect(check.status == 0, "\(check.errors)")
        }
    }

    @Test("quotes follow each shell's rules; the tool's help shows every name whole")
    func quoting() {
        #expect(CompletionScript.fishQuoted(#"tool's \"#) == #"'tool\'s \\'"#)
        #expect(CompletionScript.zshQuoted("tool's") == #"'tool'\''s'"#)
        let fish = ValidateDescribeFiles.run(["completions", "fish"]).output
        #expect(fish.contains(#"-l help -d 'Show the tool\'s help'"#))
        #expect(!fish.contains(#"'\''"#))
        let help = ValidateDescribeFiles.run(["--help"]).output
        for command in Self.listed {
            #expect(help.contains("  \(command.name) "), "\(command.name)")
        }
    }

    @Test("an unknown shell or a missing one is a usage error")
    func usage() {
        #expect(ValidateDescribeFiles.run(["completions"]).status == 2)
        let unknown = ValidateDescribeFiles.run(["completions", "tcsh"])
        #expect(unknown.status == 2 && unknown.errors.contains("'tcsh'"))
    }
}
