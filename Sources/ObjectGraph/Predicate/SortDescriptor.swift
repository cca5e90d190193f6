import Foundation

/// How to order fetched objects by one key path.
///
/// Key paths may go through to-one relationships (`"team.name"`). Strings compare by Unicode
/// code points by default; choose a ``Comparison`` for case-insensitive, localized or
/// "Finder-like" (numbers by value) ordering. Nil sorts first in both directions, as Core
/// Data's SQLite store does.
///
/// ```swift
/// request.sortDescriptors = [
///     SortDescriptor("lastName", comparison: .caseInsensitive),
///     SortDescriptor("age", ascending: false),
/// ]
/// ```
public struct SortDescriptor: Sendable, Hashable {
    /// How strings are compared.
    public enum Comparison: Sendable, Hashable {
        /// By Unicode code points (`compare:`).
        case standard
        /// Ignoring case (`caseInsensitiveCompare:`).
        case caseInsensitive
        /// Ignoring case and diacritics (`localizedCaseInsensitiveCompare:`, root locale).
        case localized
        /// Ignoring case, with digit runs compared as numbers (`localizedStandardCompare:`).
        case localizedStandard
    }

    /// The key path sorted by.
    public var key: String
    /// Ascending (smallest first) or descending.
    public var ascending: Bool
    /// How strings compare.
    public var comparison: Comparison

    /// Creates a sort descriptor.
    public init(_ key: String, ascending: Bool = true, comparison: Comparison = .standard) {
        self.key = key
        self.ascending = ascending
        self.comparison = comparison
    }

    /// The same descriptor in the other direction.
    public var reversed: SortDescriptor {
        SortDescriptor(key, ascending: !ascending, comparison: comparison)
    }

    /// Orders two values as this descriptor says (before applying the direction).
    func order(_ a: Value, _ b: Value) -> ComparisonResult {
        switch (a, b) {
        case (.null, .null): return .orderedSame
        case (.null, _): return .orderedAscending
        case (_, .null): return .orderedDescending
        case (.string(let x), .string(let y)): return compareStrings(x, y)
        case (.date(let x), .date(let y)): return Self.three(x, y)
        case (.uuid(let x), .uuid(let y)): return Self.three(x.uuidString, y.uuidString)
        case (.uri(let x), .uri(let y)): return Self.three(x.absoluteString, y.absoluteString)
        case (.data(let x), .data(let y)):
            return x.lexicographicallyPrecedes(y)
                ? .orderedAscending : x == y ? .orderedSame : .orderedDescending
        case (.objectID(let x), .objectID(let y)): return Self.three(x.description, y.description)
        default:
            if let x = Double(value: a), let y = Double(value: b) {
                if case .integer(let i) = a, case .integer(let j) = b { return Self.three(i, j) }
                return Self.three(x, y)
            }
            return Self.three(Self.rank(a), Self.rank(b))
        }
    }

    private func compareStrings(_ x: String, _ y: String) -> ComparisonResult {
        switch comparison {
        case .standard:
            return Self.three(x, y)
        case .caseInsensitive:
            return Self.three(x.lowercased(), y.lowercased())
        case .localized:
            let fold: (String) -> String = {
                $0.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
            }
            return Self.three(fold(x), fold(y))
        case .localizedStandard:
            return NaturalOrder.compare(x.lowercased(), y.lowercased())
        }
    }

    private static func three<T: Comparable>(_ x: T, _ y: T) -> ComparisonResult {
        x < y ? .orderedAscending : x == y ? .orderedSame : .orderedDescending
    }

    /// Orders values of different kinds by kind, so sorting never fails.
    private static func rank(_ value: Value) -> Int {
        switch value {
        case .null: return 0
        case .bool: return 1
        case .integer, .double, .decimal: return 2
        case .string: return 3
        case .date: return 4
        case .data: return 5
        case .uuid: return 6
        case .uri: return 7
        case .objectID: return 8
        }
    }
}

extension NaturalOrder {
    /// Three-way natural comparison.
    static func compare(_ lhs: String, _ rhs: String) -> ComparisonResult {
        if precedes(lhs, rhs) { return .orderedAscending }
        if precedes(rhs, lhs) { return .orderedDescending }
        return .orderedSame
    }
}

extension SortDescriptor {
    /// A sort descriptor for a key path of a class that names its properties (generated
    /// classes do).
    ///
    /// ```swift
    /// request.sortDescriptors = [try SortDescriptor(\Student.name, ascending: true)]
    /// ```
    /// - Throws: ``KeyPathNamingError`` naming the key path and type when the class's table
    ///   does not list it.
    public init<Root: KeyPathNaming, V>(
        _ keyPath: KeyPath<Root, V>, ascending: Bool = true, comparison: Comparison = .standard
    ) throws(KeyPathNamingError) {
        self.init(
            try KeyPathNames.name(of: keyPath), ascending: ascending, comparison: comparison)
    }
}
