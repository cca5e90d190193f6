/// The `objectgraph` command-line tool (being built).
public enum CommandLineTool {
    /// Runs the tool with `arguments` (without the program name) and returns the exit code.
    public static func run(_ arguments: [String]) -> Int32 { 0 }
}
