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
/// `description` prints the canonical form; parsing it gives back an equal predicate.
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
