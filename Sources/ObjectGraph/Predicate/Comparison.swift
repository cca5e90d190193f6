/// A comparison predicate: `[modifier] left operator[options] right`.
///
/// ```swift
/// let c = Comparison(.key("name"), .beginsWith, "J", options: .caseInsensitive)
/// print(Predicate.comparison(c))  // name BEGINSWITH[c] "J"
/// ```
public struct Comparison: Sendable, Hashable {
    /// Whether the comparison applies to the left value itself or to each of its elements.
    public var modifier: ComparisonModifier
    /// The left-hand expression.
    public var left: Expression
    /// The operator.
    public var `operator`: ComparisonOperator
    /// The right-hand expression.
    public var right: Expression
    /// String options (`[c]`, `[d]`, `[cd]`, `[n]`, `[l]`).
    public var options: ComparisonOptions

    /// Creates a comparison.
    public init(
        _ left: Expression, _ operator: ComparisonOperator, _ right: Expression,
        modifier: ComparisonModifier = .direct, options: ComparisonOptions = []
    ) {
        self.modifier = modifier
        self.left = left
        self.operator = `operator`
        self.right = right
        self.options = options
    }
}

/// How a comparison treats a collection on its left side (`NONE` is parsed as `NOT ANY`).
public enum ComparisonModifier: String, Sendable, Hashable, CaseIterable {
    /// Compare the left value itself.
    case direct
    /// `ANY` / `SOME`: the comparison holds for at least one element.
    case any
    /// `ALL`: the comparison holds for every element (true for an empty collection).
    case all
}

/// The operator of a ``Comparison``.
public enum ComparisonOperator: String, Sendable, Hashable, CaseIterable {
    /// `<`
    case lessThan
    /// `<=` (also `=<`)
    case lessThanOrEqual
    /// `>`
    case greaterThan
    /// `>=` (also `=>`)
    case greaterThanOrEqual
    /// `==` (also `=`)
    case equal
    /// `!=` (also `<>`)
    case notEqual
    /// `MATCHES`: the whole string matches an ICU regular expression.
    case matches
    /// `LIKE`: the whole string matches a pattern with `*` and `?` wildcards.
    case like
    /// `BEGINSWITH`
    case beginsWith
    /// `ENDSWITH`
    case endsWith
    /// `IN`: membership in a collection, or substring of a string.
    case `in`
    /// `CONTAINS`: a collection holds the value, or a string holds the substring.
    case contains
    /// `BETWEEN`: inclusive range given as a two-element collection `{low, high}`.
    case between

    /// The canonical spelling (`==`, `BEGINSWITH`, …).
    public var symbol: String {
        switch self {
        case .lessThan: return "<"
        case .lessThanOrEqual: return "<="
        case .greaterThan: return ">"
        case .greaterThanOrEqual: return ">="
        case .equal: return "=="
        case .notEqual: return "!="
        case .matches: return "MATCHES"
        case .like: return "LIKE"
        case .beginsWith: return "BEGINSWITH"
        case .endsWith: return "ENDSWITH"
        case .in: return "IN"
        case .contains: return "CONTAINS"
        case .between: return "BETWEEN"
        }
    }
}

/// String comparison options, written `[c]`, `[d]`, `[cd]`, `[n]`, `[l]` after an operator.
public struct ComparisonOptions: OptionSet, Sendable, Hashable {
    /// The raw bits.
    public let rawValue: Int
    /// Creates options from raw bits.
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// `[c]`: case-insensitive.
    public static let caseInsensitive = ComparisonOptions(rawValue: 1)
    /// `[d]`: diacritic-insensitive ("é" equals "e").
    public static let diacriticInsensitive = ComparisonOptions(rawValue: 2)
    /// `[n]`: normalized (accepted; strings are already compared by canonical equivalence).
    public static let normalized = ComparisonOptions(rawValue: 4)
    /// `[l]`: locale-sensitive (accepted; comparisons use the root locale).
    public static let localeSensitive = ComparisonOptions(rawValue: 8)

    /// The letters inside the brackets, in canonical order (`"cd"`).
    public var letters: String {
        var text = ""
        if contains(.caseInsensitive) { text += "c" }
        if contains(.diacriticInsensitive) { text += "d" }
        if contains(.normalized) { text += "n" }
        if contains(.localeSensitive) { text += "l" }
        return text
    }
}
