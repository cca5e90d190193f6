/// Identifiers (schemas, tables, columns, indexes) as they go into PostgreSQL's SQL text.
public enum PostgresIdentifier {
    /// `name` in double quotes, each embedded double quote doubled: the name exactly as
    /// written, case kept, keywords harmless. Values never go into SQL text; they are bound.
    ///
    /// ```swift
    /// PostgresIdentifier.quoted("ZPERSON")    // "ZPERSON"
    /// PostgresIdentifier.quoted("my \"app\"")  // "my ""app"""
    /// ```
    public static func quoted(_ name: String) -> String {
        "\""
            + name.split(separator: "\"", omittingEmptySubsequences: false)
            .joined(separator: "\"\"") + "\""
    }

    /// `schema.name`, each part quoted.
    public static func qualified(_ schema: String, _ name: String) -> String {
        quoted(schema) + "." + quoted(name)
    }
}
