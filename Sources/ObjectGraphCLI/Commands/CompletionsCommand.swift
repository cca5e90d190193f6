/// `objectgraph completions bash|zsh|fish`: prints a completion script for every command and
/// its options, read from the commands' own help.
struct CompletionsCommand: Command {
    static let name = "completions"
    static let abstract = "Print a shell completion script (bash, zsh, fish)"
    static let help = """
        OVERVIEW: Print a completion script for a shell: every command, its subcommands and
        options (read from each command's help), and the values of options that list them.

        USAGE: objectgraph completions bash|zsh|fish

        ARGUMENTS:
          <shell>             bash, zsh or fish.

        OPTIONS:
          -h, --help          Show this help.

        EXAMPLES:
          source <(objectgraph completions bash)
          objectgraph completions zsh > "${fpath[1]}/_objectgraph"
          objectgraph completions fish > ~/.config/fish/completions/objectgraph.fish

        """

    static func run(_ arguments: [String], io: CommandIO) -> Int32 {
        guard arguments.count == 1, let shell = arguments.first else {
            return usageError("expected one shell (bash, zsh or fish)", io: io)
        }
        guard let script = CompletionScript.script(for: shell, CompletionScript.syntaxes) else {
            return usageError("no completion script for '\(shell)' (bash, zsh, fish)", io: io)
        }
        io.write(script)
        return ExitStatus.success
    }
}
