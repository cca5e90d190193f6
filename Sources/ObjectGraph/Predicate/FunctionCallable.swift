/// An object that answers `FUNCTION(object, "selector:", arguments…)` calls in expressions, the
/// way `NSExpression` sends a message to its target (Core Data's mapping models call
/// `FUNCTION($manager, "destinationInstancesForEntityMappingNamed:sourceInstances:", …)`).
///
/// ```swift
/// final class Greeter: FunctionCallable {
///     func predicateValue(forKey key: String) throws -> EvaluationValue { .null }
///     func callFunction(_ selector: String, arguments: [EvaluationValue]) throws -> EvaluationValue {
///         guard selector == "greet:" else { throw PredicateEvaluationError.unsupported(selector) }
///         return .value(.string("hello"))
///     }
/// }
/// try Expression(format: #"FUNCTION($g, "greet:", 1)"#).evaluate(with: EvaluationValue.null, variables: ["g": .object(Greeter())])
/// ```
public protocol FunctionCallable: KeyValueReadable {
    /// The result of calling `selector` with `arguments` (already evaluated). Throw
    /// ``PredicateEvaluationError/unsupported(_:)`` for a selector the object does not answer.
    func callFunction(_ selector: String, arguments: [EvaluationValue]) throws -> EvaluationValue
}
