import Foundation

/// A value-producing part of a predicate, in the model of `NSExpression`: constants, key paths,
/// variables, aggregates, functions, subqueries and arithmetic.
///
/// ```swift
/// let count = try Expression(format: "chapters.@count")
/// let total = Expression.key("price").times(.key("quantity"))
/// print(total)  // price * quantity
/// ```
public indirect enum Expression: Sendable, Hashable {
    /// A constant scalar (`42`, `"text"`, `nil`, `TRUE`, a date, …).
    case constant(Value)
    /// A literal collection `{a, b, c}` (also arrays and sets passed as `%@`).
    case aggregate([Expression])
    /// The evaluated object itself (`SELF`).
    case evaluatedObject
    /// A key path on the evaluated object (`department.name`, `items.@sum.price`).
    case keyPath(PredicateKeyPath)
    /// A key path applied to the value of another expression (`$x.name`, `SELF.name`).
    case member(Expression, PredicateKeyPath)
    /// A variable (`$NAME`), replaced by substitution or bound at evaluation.
    case variable(String)
    /// An index into a collection or dictionary (`items[0]`, `items[LAST]`, `items[SIZE]`).
    case index(Expression, ExpressionIndex)
    /// A built-in function by selector name (`average:`, `add:to:`, `now`), with its arguments.
    case function(String, [Expression])
    /// `FUNCTION(target, "selector:", arguments…)`: a method call on a value.
    case functionCall(Expression, String, [Expression])
    /// Binary arithmetic (`a + b`, `a ** b`).
    case arithmetic(Expression, ArithmeticOperator, Expression)
    /// Unary minus (`-a`).
    case negate(Expression)
    /// `SUBQUERY(collection, $variable, predicate)`: the elements for which the predicate holds.
    case subquery(Expression, String, Predicate)
    /// `TERNARY(predicate, then, else)`.
    case ternary(Predicate, Expression, Expression)
    /// `CAST(value, "ClassName")` (`NSDate`, `NSNumber`, `NSString`, …).
    case cast(Expression, String)
}

/// The selector of an index expression.
public indirect enum ExpressionIndex: Sendable, Hashable {
    /// A position in an array or a key in a dictionary (`[0]`, `["key"]`).
    case expression(Expression)
    /// `[FIRST]`: the first element.
    case first
    /// `[LAST]`: the last element.
    case last
    /// `[SIZE]`: the number of elements.
    case size
}

/// A binary arithmetic operator.
public enum ArithmeticOperator: String, Sendable, Hashable, CaseIterable {
    /// `+`
    case add = "+"
    /// `-`
    case subtract = "-"
    /// `*`
    case multiply = "*"
    /// `/` (always a floating-point division)
    case divide = "/"
    /// `**` (power)
    case power = "**"
}
