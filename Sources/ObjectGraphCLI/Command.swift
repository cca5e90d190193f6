/// One subcommand of `objectgraph`.
///
/// Conventions (those of swift-argument-parser tools): `--help` prints usage and exits 0; exit 0
/// means success, 1 a finding (model errors, a predicate that does not parse), 2 a usage error or
/// unreadable input, with a one-line hint on standard error.
protocol Command: Sendable {
    /// The subcommand's name (`validate`).
    static var name: String { get }
    /// One line saying what it does, for the tool's help.
    static var abstract: String { get }
    /// The full help text (usage, arguments, options).
    static var help: String { get }
    /// Runs the command with the arguments after its name.
    static func run(_ arguments: [String], io: CommandIO) -> Int32
}

/// Exit codes shared by all commands.
enum ExitStatus {
    /// Success.
    static let success: Int32 = 0
    /// A finding: the input has errors.
    static let finding: Int32 = 1
    /// A usage error or unreadable input.
    static let usage: Int32 = 2
}

extension Command {
    /// Prints `message` and a hint to run `--help`, and returns the usage exit code.
    static func usageError(_ message: String, io: CommandIO) -> Int32 {
        io.writeError("error: \(message)\nhint: run 'objectgraph \(name) --help' for usage\n")
        return ExitStatus.usage
    }

    /// Whether the arguments ask for help.
    static func wantsHelp(_ arguments: [String]) -> Bool {
        arguments.contains("--help") || arguments.contains("-h")
    }
}
