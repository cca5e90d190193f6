/// A rule an attribute's value must satisfy, with the text reported when it does not: Core
/// Data's `validationPredicates` and `validationWarnings` of a property, one pair each.
///
/// The predicate is evaluated with the value as `SELF`; a nil value is not checked (whether nil
/// is allowed is the attribute's `isOptional`). A value that fails it is reported with the
/// warning as its message, by ``ManagedObject/validateValue(_:forKey:)`` and at save.
///
/// ```swift
/// var age = Attribute("age", type: .integer16)
/// age.validationPredicates = [
///     ValidationPredicate(try Predicate(format: "SELF >= 0"), warning: "age cannot be negative")
/// ]
/// ```
public struct ValidationPredicate: Sendable, Hashable {
    /// The condition, with the value as `SELF`.
    public var predicate: Predicate
    /// What is reported when the value does not satisfy it.
    public var warning: String

    /// Creates a rule.
    public init(_ predicate: Predicate, warning: String) {
        self.predicate = predicate
        self.warning = warning
    }
}
