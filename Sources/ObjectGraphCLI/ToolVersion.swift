/// The version of the `objectgraph` tool and its libraries, printed by
/// `objectgraph --version` (README's "Command-line tool" section names it too).
///
/// ```swift
/// print(ToolVersion.current)  // 0.1.0
/// ```
public enum ToolVersion {
    /// The version, `major.minor.patch`.
    public static let current = "0.1.0"
}
