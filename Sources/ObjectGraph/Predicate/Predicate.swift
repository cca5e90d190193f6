import Foundation

/// A condition on an object, in the model of Core Data's `NSPredicate`: a closed value tree that
/// the in-memory evaluator, the SQL compiler and the canonical printer all switch over.
///
/// Make one by parsing Apple's predicate format syntax, or with the Swift builder:
///
/// ```swift
/// let parsed = try Predicate(format: "age > %@ AND name BEGINSWITH[c] $PREFIX", 30)
/// let built = Expression.key("age") > 30
///     && Expression.key("name").beginsWith(.variable("PREFIX"), options: .caseInsensitive)
/// // parsed == built
/// print(parsed)  // age > 30 AND name BEGINSWITH[c] $PREFIX
/// ```
///
/// `description` prints the canonical form; parsing it gives back an equal predicate. Scalars
/// without a literal syntax print as casts: `CAST(<seconds since 2001>, "NSDate")`,
/// `CAST("<base64>", "NSData")`, `CAST("<uuid>", "NSUUID")`, `CAST("<url>", "NSURL")`,
/// `CAST("<decimal>", "NSDecimalNumber")`, `CAST("<uri>", "NSManagedObjectID")`.
///
/// ## Semantics (``evaluate(with:variables:)``)
/// - `NOT` binds tighter than `AND`, which binds tighter than `OR`; `NONE` is `NOT ANY`.
/// - Numbers compare by value across integer, double, decimal and Boolean (`TRUE == 1`).
/// - `x == nil` holds for a missing or null value; an ordering or string operator with nil on
///   either side is false; `ANY` over nil is false, `ALL` and `NONE` over nil or empty are true.
/// - A collection compared directly with a single value (`children.name == "x"`) is an error,
///   as in a Core Data fetch: quantify it with `ANY`/`ALL`, or use `CONTAINS`/`IN`.
/// - `[c]` folds case and `[d]` diacritics on every string operator; `LIKE` knows only `*` and
///   `?`; `MATCHES` is an ICU expression over the whole string (an invalid one throws).
/// - An empty pattern never matches `BEGINSWITH`, `ENDSWITH` or `CONTAINS`, as on Apple.
/// - Integer arithmetic that overflows throws; `/` divides as floating point.
/// - Unbound `$VARIABLES` throw ``PredicateEvaluationError/unboundVariable(_:)``.
///
/// Parsing limits nesting to 256 levels so hostile input throws instead of exhausting the
/// stack; lists (`a OR b OR …`, `{1, 2, …}`) may be of any length.
public indirect enum Predicate: Sendable, Hashable {
    /// `TRUEPREDICATE` (`true`) or `FALSEPREDICATE` (`false`).
    case constant(Bool)
    /// All of the subpredicates hold (`AND`, `&&`). An empty list is true.
    case and([Predicate])
    /// At least one of the subpredicates holds (`OR`, `||`). An empty list is false.
    case or([Predicate])
    /// The subpredicate does not hold (`NOT`, `!`).
    case not(Predicate)
    /// A comparison of two expressions, such as `age >= 18` or `ANY tags.name ==[c] "swift"`.
    case comparison(Comparison)

    /// `TRUEPREDICATE`.
    public static let truePredicate = Predicate.constant(true)
    /// `FALSEPREDICATE`.
    public static let falsePredicate = Predicate.constant(false)
}
