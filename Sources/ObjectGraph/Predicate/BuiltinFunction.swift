/// A built-in function of the predicate language (`average:`, `add:to:`, `now`, …): its selector
/// name and how many arguments it takes.
struct BuiltinFunction: Sendable, Hashable {
    /// The selector name, with one colon per argument (`"add:to:"`, `"now"`).
    let selector: String
    /// The number of arguments.
    var arity: Int { selector.filter { $0 == ":" }.count }

    /// Every supported function.
    static let all: [BuiltinFunction] = [
        "sum:", "count:", "min:", "max:", "average:", "median:", "mode:", "stddev:",
        "add:to:", "from:subtract:", "multiply:by:", "divide:by:", "modulus:by:", "sqrt:",
        "log:", "ln:", "raise:toPower:", "exp:", "floor:", "ceiling:", "abs:", "trunc:",
        "uppercase:", "lowercase:", "now", "random", "randomn:", "bitwiseAnd:with:",
        "bitwiseOr:with:", "bitwiseXor:with:", "leftshift:by:", "rightshift:by:",
        "onesComplement:", "noindex:",
    ].map { BuiltinFunction(selector: $0) }

    private static let bySelector: [String: BuiltinFunction] = Dictionary(
        all.map { ($0.selector.lowercased(), $0) }, uniquingKeysWith: { first, _ in first })

    private static let byName: [String: BuiltinFunction] = Dictionary(
        all.map { function -> (String, BuiltinFunction) in
            let name = function.selector.split(separator: ":").first.map(String.init) ?? ""
            return (name.lowercased(), function)
        }, uniquingKeysWith: { first, _ in first })

    /// Finds a function by its selector (`add:to:`) or its first word (`add`, `now`).
    static func lookup(_ name: String) -> BuiltinFunction? {
        let key = name.lowercased()
        if key.contains(":") { return bySelector[key] }
        return byName[key]
    }
}
