/// Identifier quoting for the layout's SQL text.
enum SQLText {
    /// Wraps `identifier` in double quotes, doubling every embedded double quote.
    static func quote(_ identifier: String) -> String {
        "\"" + identifier.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
