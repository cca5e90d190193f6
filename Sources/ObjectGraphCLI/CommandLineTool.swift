import Foundation

/// The `objectgraph` command-line tool: model validation, predicates, stores, preferences and
/// the keychain.
///
/// ```swift
/// let status = CommandLineTool.run(["validate", "Models/School.xcdatamodeld"])
/// ```
public enum CommandLineTool {
    /// Every subcommand, in the order help lists them.
    static var commands: [any Command.Type] {
        [
            // One line per command.
            ValidateCommand.self,
            DescribeCommand.self,
            CodegenCommand.self,
            PredicateCommand.self,
            DefaultsCommand.self,
            DumpCommand.self,
            QueryCommand.self,
            ModelFromStoreCommand.self,
            KeychainCommand.self,
            ConvertCommand.self,
            MigrateCommand.self,
            StressSaveCommand.self,
            IncrementCommand.self,
            SharedEditsCommand.self,
            DiagramCommand.self,
            CompletionsCommand.self,
            HistoryCommand.self,
        ]
    }

    /// Runs the tool with `arguments` (without the program name) and returns the exit code.
    public static func run(_ arguments: [String], io: CommandIO = StandardIO()) -> Int32 {
        guard let first = arguments.first else {
            io.writeError(usage)
            return ExitStatus.usage
        }
        if first == "--version" {
            io.write("objectgraph \(ToolVersion.current)\n")
            return ExitStatus.success
        }
        if first == "--help" || first == "-h" || first == "help" {
            io.write(usage)
            return ExitStatus.success
        }
        guard let command = commands.first(where: { $0.name == first }) else {
            io.writeError(
                "error: unknown command '\(first)'\nhint: run 'objectgraph --help' for usage\n")
            return ExitStatus.usage
        }
        let rest = Array(arguments.dropFirst())
        if command.wantsHelp(rest) {
            io.write(command.help)
            return ExitStatus.success
        }
        return command.run(rest, io: io)
    }

    static var usage: String {
        var text =
            "OVERVIEW: ObjectGraph's command-line tool\n\nUSAGE: objectgraph <subcommand>\n\n"
        text += "SUBCOMMANDS:\n"
        let listed = commands.filter { !$0.name.hasPrefix("_") }
        // As wide as the longest name and a space (a narrower column cut names off).
        let width = max(12, (listed.map { $0.name.count }.max() ?? 0) + 1)
        for command in listed {
            let padded = command.name.padding(toLength: width, withPad: " ", startingAt: 0)
            text += "  \(padded)\(command.abstract)\n"
        }
        text += "\nOPTIONS:\n  --version   Print the version (\(ToolVersion.current))\n"
        text += "  -h, --help  Show this help\n"
        text += "\n  See 'objectgraph <subcommand> --help' for details.\n"
        return text
    }
}
