/// Why a Foundation `#Predicate` has no ObjectGraph form: a construct with no Core Data
/// meaning, a key path its class does not name, or a captured value with no predicate form.
/// Never a silently different query.
///
/// ```swift
/// do { _ = try Predicate(#Predicate<Student> { $0.name.contains(/A+/) }) }
/// catch let error as FoundationPredicateError { print(error) }
/// // PredicateExpressions.StringContainsRegex has no ObjectGraph predicate form: …
/// ```
public enum FoundationPredicateError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A construct (its `PredicateExpressions` type name, such as
    /// `PredicateExpressions.TypeCheck`) that has no Core Data meaning, and why.
    case unsupportedConstruct(String, reason: String)
    /// A key path that its root type does not name (see ``KeyPathNaming``).
    case keyPath(KeyPathNamingError)
    /// A captured value of a type with no predicate form, in the construct holding it.
    case unsupportedValue(type: String, in: String)

    /// A one-line explanation.
    public var description: String {
        switch self {
        case .unsupportedConstruct(let construct, let reason):
            return "\(construct) has no ObjectGraph predicate form: \(reason)"
        case .keyPath(let error): return error.description
        case .unsupportedValue(let type, let construct):
            return "\(construct) holds a value of type \(type), which has no predicate form"
        }
    }

    /// The construct's name: `PredicateExpressions.TypeCheck` for any of its specializations.
    static func constructName(_ type: Any.Type) -> String {
        var name = _typeName(type, qualified: true)
        if let generic = name.firstIndex(of: "<") { name = String(name[..<generic]) }
        let parts = name.split(separator: ".")
        if let start = parts.firstIndex(of: "PredicateExpressions") {
            return parts[start...].joined(separator: ".")
        }
        return name
    }

    /// The construct `value` is, unsupported for `reason`.
    static func unsupported(_ value: Any, _ reason: String) -> FoundationPredicateError {
        .unsupportedConstruct(constructName(Swift.type(of: value)), reason: reason)
    }
}
