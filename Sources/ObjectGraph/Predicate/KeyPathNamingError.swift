/// A Swift key path used where a model key is taken, that ObjectGraph cannot turn into one.
///
/// Thrown by the APIs that take key paths and can throw (`SortDescriptor(\Student.name)`,
/// ``KeyPathNaming/name(of:)``, the fetch request's key-path setters); a predicate built with the key-path operators
/// (`\Student.gpa >= 3.0`), which cannot throw, carries the error instead, and the fetch that
/// runs it throws it: never a trap, never a different query.
///
/// ```swift
/// do { _ = try Student.name(of: \Student.transientCache) }
/// catch let error as KeyPathNamingError { print(error) }
/// // \Student.transientCache names no model property of Student (not in its KeyPathNaming table)
/// ```
public enum KeyPathNamingError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The key path is not in its root type's ``KeyPathNaming`` table: the key path's text and
    /// the root type's name.
    case unnamedKeyPath(String, type: String)
    /// The key path's root type does not conform to ``KeyPathNaming``.
    case rootNotNaming(String, type: String)
    /// A value compared with a key path that has no predicate form: the key path and the
    /// value's type.
    case unsupportedValue(String, type: String)

    /// A one-line explanation.
    public var description: String {
        switch self {
        case .unnamedKeyPath(let keyPath, let type):
            return "\(keyPath) names no model property of \(type) (not in its KeyPathNaming table)"
        case .rootNotNaming(let keyPath, let type):
            return "\(keyPath): \(type) does not conform to KeyPathNaming, so its key paths"
                + " name no model property"
        case .unsupportedValue(let keyPath, let type):
            return
                "\(keyPath) is compared with a value of type \(type), which has no predicate form"
        }
    }

    /// The selector of the function expression that carries the error inside a predicate.
    static let selector = "objectGraphKeyPathError:keyPath:type:"

    /// An expression that throws this error when evaluated, and that a fetch refuses first.
    var expression: Expression {
        let (kind, keyPath, type): (String, String, String)
        switch self {
        case .unnamedKeyPath(let k, let t): (kind, keyPath, type) = ("unnamed", k, t)
        case .rootNotNaming(let k, let t): (kind, keyPath, type) = ("root", k, t)
        case .unsupportedValue(let k, let t): (kind, keyPath, type) = ("value", k, t)
        }
        return .function(
            Self.selector,
            [.constant(.string(kind)), .constant(.string(keyPath)), .constant(.string(type))])
    }

    /// The error a carrier expression's arguments hold.
    init?(selector: String, arguments: [Expression]) {
        guard selector == Self.selector, arguments.count == 3,
            case .constant(.string(let kind)) = arguments[0],
            case .constant(.string(let keyPath)) = arguments[1],
            case .constant(.string(let type)) = arguments[2]
        else { return nil }
        switch kind {
        case "unnamed": self = .unnamedKeyPath(keyPath, type: type)
        case "root": self = .rootNotNaming(keyPath, type: type)
        default: self = .unsupportedValue(keyPath, type: type)
        }
    }

    /// The error a carrier function's evaluated arguments hold.
    init?(selector: String, values: [EvaluationValue]) {
        let constants = values.map { value -> Expression in
            if case .value(let scalar) = value { return .constant(scalar) }
            return .constant(.null)
        }
        self.init(selector: selector, arguments: constants)
    }
}
