/// The values bound to a statement's parameters: positional (`?`, `?NNN`), named (`:name`,
/// `@name`, `$name`), or both.
///
/// Build them from an array literal for positional parameters, or a dictionary literal for
/// named ones (keys may omit the prefix character):
///
/// ```swift
/// try db.execute(sql: "INSERT INTO player (name, score) VALUES (?, ?)", arguments: ["Ann", 10])
/// try db.execute(
///     sql: "INSERT INTO player (name, score) VALUES (:name, :score)",
///     arguments: ["name": "Bob", "score": nil])
/// ```
public struct StatementArguments: Hashable, Sendable, CustomStringConvertible,
    ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral
{
    /// Values for positional parameters, in order.
    public var positional: [DatabaseValue]

    /// Values for named parameters, keyed by name without its prefix character.
    public var named: [String: DatabaseValue]

    /// No arguments.
    public init() {
        self.positional = []
        self.named = [:]
    }

    /// Creates arguments from positional and named values. Named keys may carry a prefix
    /// character (`:`, `@` or `$`); it is dropped.
    public init(positional: [DatabaseValue] = [], named: [String: DatabaseValue] = [:]) {
        self.positional = positional
        var stripped: [String: DatabaseValue] = [:]
        for (key, value) in named {
            stripped[Self.strippedName(key)] = value
        }
        self.named = stripped
    }

    /// Positional arguments from Swift values (`nil` is `NULL`).
    public init(_ values: [(any DatabaseValueConvertible)?]) {
        self.init(positional: values.map { $0?.databaseValue ?? .null })
    }

    /// Named arguments from Swift values (`nil` is `NULL`).
    public init(_ values: [String: (any DatabaseValueConvertible)?]) {
        self.init(named: values.mapValues { $0?.databaseValue ?? .null })
    }

    /// Positional arguments: `[1, "two", nil]`.
    public init(arrayLiteral elements: (any DatabaseValueConvertible)?...) {
        self.init(elements)
    }

    /// Named arguments: `["name": "Ann", "score": 10]`.
    public init(dictionaryLiteral elements: (String, (any DatabaseValueConvertible)?)...) {
        var named: [String: DatabaseValue] = [:]
        for (key, value) in elements {
            named[key] = value?.databaseValue ?? .null
        }
        self.init(named: named)
    }

    /// Whether there is no value at all.
    public var isEmpty: Bool {
        positional.isEmpty && named.isEmpty
    }

    /// `[1, 'two', NULL]`, `[name: 'Ann']`, or both. Reveals values: see
    /// ``DatabaseError/expandedDescription``.
    public var description: String {
        var parts = positional.map(\.description)
        parts += named.keys.sorted().map { key in
            "\(key): \(named[key]?.description ?? "NULL")"
        }
        return "[" + parts.joined(separator: ", ") + "]"
    }

    /// A parameter name without its prefix character (`:name` → `name`).
    static func strippedName(_ name: String) -> String {
        guard let first = name.first, first == ":" || first == "@" || first == "$" else {
            return name
        }
        return String(name.dropFirst())
    }
}
