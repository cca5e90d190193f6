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
            HistoryCommand.self,
        ]
    }

    /// Runs the tool with `arguments` (without the program name) and returns the exit code.
    public static func run(_ arguments: [String], io: CommandIO = StandardIO()) -> Int32 {
        guard let first = arguments.first else {
            io.writeError(usage)
            return ExitStatus.usage
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
        for command in commands where !command.name.hasPrefix("_") {
            let padded = command.name.padding(toLength: 12, withPad: " ", startingAt: 0)
            text += "  \(padded)\(command.abstract)\n"
        }
        text += "\n  See 'objectgraph <subcommand> --help' for details.\n"
        return text
    }
}
