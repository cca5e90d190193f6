import Foundation
import KeyedArchive

/// Turns the objects of a keyed archive of an `NSExpression` or `NSPredicate` into ObjectGraph's
/// ``Expression`` and ``Predicate``, class by class (the keys are those Foundation writes:
/// `NSExpressionType`, `NSOperand`, `NSSelectorName`, `NSArguments`, `NSVariable`, `NSKeyPath`,
/// `NSConstantValue`, `NSCollection`, `NSLeftExpression`, `NSPredicateOperator`, …).
///
/// Nothing in the archive is trusted: every field is checked for its kind, an object that
/// contains itself is an error, and nesting is limited to ``maximumDepth``.
struct ArchivedPredicateDecoder {
    /// The deepest nesting of expressions and predicates decoded.
    static let maximumDepth = 128

    /// The objects being decoded (an object met again inside itself is a cycle).
    var visiting: Set<Int> = []

    /// The root value of the archive in `data`.
    static func root(of data: Data) throws(ArchivedPredicateError) -> ArchivedValue {
        do {
            return try KeyedArchive(data: data).rootValue()
        } catch {
            throw ArchivedPredicateError(error)
        }
    }

    // MARK: Expressions

    /// The expression `value` archives.
    mutating func expression(_ value: ArchivedValue, depth: Int) throws(ArchivedPredicateError)
        -> Expression
    {
        let object = try self.object(value, kindOf: "NSExpression", depth: depth)
        visiting.insert(object.index)
        defer { visiting.remove(object.index) }
        switch object.className {
        case "NSConstantValueExpression":
            return .constant(try constant(object))
        case "NSSelfExpression":
            return .evaluatedObject
        case "NSVariableExpression":
            return .variable(try string(object, "NSVariable"))
        case "NSKeyPathSpecifierExpression":
            return .keyPath(PredicateKeyPath(try string(object, "NSKeyPath")))
        case "NSKeyPathExpression", "NSFunctionExpression":
            return try function(object, depth: depth)
        case "NSAggregateExpression":
            return .aggregate(try expressions(object, "NSCollection", depth: depth))
        case "NSSubqueryExpression":
            let collection = try expression(try field(object, "NSExpression"), depth: depth + 1)
            let condition = try predicate(try field(object, "NSSubpredicate"), depth: depth + 1)
            return .subquery(collection, try subqueryVariable(object, depth: depth), condition)
        case "NSTernaryExpression":
            return .ternary(
                try predicate(try field(object, "NSPredicate"), depth: depth + 1),
                try expression(try field(object, "NSTrueExpression"), depth: depth + 1),
                try expression(try field(object, "NSFalseExpression"), depth: depth + 1))
        default:
            throw ArchivedPredicateError(
                className: object.className,
                reason: "archived class \(object.className) has no ObjectGraph form")
        }
    }

    /// The expressions listed under `key` (an array or set of archived expressions).
    mutating func expressions(_ object: ArchivedObject, _ key: String, depth: Int)
        throws(ArchivedPredicateError) -> [Expression]
    {
        guard let value = try optionalField(object, key), !value.isNull else { return [] }
        guard let elements = value.elements else {
            throw mismatch(object, key, "a collection of expressions")
        }
        var result: [Expression] = []
        result.reserveCapacity(elements.count)
        for element in elements { result.append(try expression(element, depth: depth + 1)) }
        return result
    }

    /// A subquery's variable: a string, or a variable expression.
    private mutating func subqueryVariable(_ object: ArchivedObject, depth: Int)
        throws(ArchivedPredicateError) -> String
    {
        let value = try field(object, "NSVariable")
        if let name = value.string { return name }
        if case .variable(let name) = try expression(value, depth: depth + 1) { return name }
        throw mismatch(object, "NSVariable", "a variable name")
    }

    /// The value of a constant expression. A class constant (Foundation's function holder
    /// `_NSPredicateUtilities`) is nil: only functions use one, as their operand.
    private func constant(_ object: ArchivedObject) throws(ArchivedPredicateError) -> Value {
        guard let value = try optionalField(object, "NSConstantValue") else { return .null }
        return try constantValue(value, in: object)
    }

    private func constantValue(_ value: ArchivedValue, in owner: ArchivedObject)
        throws(ArchivedPredicateError) -> Value
    {
        switch value {
        case .null: return .null
        case .bool(let flag): return .bool(flag)
        case .integer(let number): return .integer(number)
        case .real(let number): return .double(number)
        case .string(let text): return .string(text)
        case .data(let bytes): return .data(bytes)
        case .date(let date): return .date(date)
        case .object(let object) where object.className == "NSUUID":
            if case .data(let bytes)? = try optionalField(object, "NS.uuidbytes"), bytes.count == 16
            {
                let b = [UInt8](bytes)
                return .uuid(
                    UUID(
                        uuid: (
                            b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10],
                            b[11], b[12], b[13], b[14], b[15]
                        )))
            }
            throw mismatch(object, "NS.uuidbytes", "16 bytes")
        case .object(let object) where object.className == "NSURL":
            if let text = try optionalField(object, "NS.relative")?.string,
                try optionalField(object, "NS.base")?.isNull ?? true, let url = URL(string: text)
            {
                return .uri(url)
            }
            throw mismatch(object, "NS.relative", "an absolute URL string")
        case .object(let object):
            throw ArchivedPredicateError(
                className: object.className,
                reason: "a constant of class \(object.className) has no ObjectGraph form")
        case .array, .set, .dictionary:
            throw ArchivedPredicateError(
                className: owner.className,
                reason: "\(owner.className): a collection constant has no ObjectGraph value form")
        }
    }

    // MARK: Fields

    /// `value` as an object of class `kind` (or a subclass), not yet being decoded, at a depth
    /// within the limit.
    func object(_ value: ArchivedValue, kindOf kind: String, depth: Int)
        throws(ArchivedPredicateError) -> ArchivedObject
    {
        guard case .object(let object) = value else {
            throw ArchivedPredicateError(
                reason: "expected an archived \(kind), found \(Self.kind(of: value))")
        }
        guard object.isKind(of: kind) else {
            throw ArchivedPredicateError(
                className: object.className,
                reason: "expected an archived \(kind), found class \(object.className)")
        }
        guard !visiting.contains(object.index) else {
            throw ArchivedPredicateError(
                className: object.className,
                reason: "archived \(object.className) (object \(object.index)) contains itself")
        }
        guard depth < Self.maximumDepth else {
            throw ArchivedPredicateError(
                className: object.className,
                reason: "expressions nest more than \(Self.maximumDepth) levels deep")
        }
        return object
    }

    /// The field `key` of `object`; absent is an error.
    func field(_ object: ArchivedObject, _ key: String) throws(ArchivedPredicateError)
        -> ArchivedValue
    {
        guard let value = try optionalField(object, key) else {
            throw ArchivedPredicateError(
                className: object.className,
                reason: "archived \(object.className) (object \(object.index)) has no \(key)")
        }
        return value
    }

    /// The field `key` of `object`, `nil` when absent.
    func optionalField(_ object: ArchivedObject, _ key: String) throws(ArchivedPredicateError)
        -> ArchivedValue?
    {
        do {
            return try object.value(forKey: key)
        } catch {
            throw ArchivedPredicateError(error)
        }
    }

    /// The string field `key` of `object`.
    func string(_ object: ArchivedObject, _ key: String) throws(ArchivedPredicateError) -> String {
        guard let text = try field(object, key).string else {
            throw mismatch(object, key, "a string")
        }
        return text
    }

    /// The integer field `key` of `object` (0 when absent, as `decodeInteger(forKey:)`).
    func integer(_ object: ArchivedObject, _ key: String) throws(ArchivedPredicateError) -> Int64 {
        guard let value = try optionalField(object, key) else { return 0 }
        guard let number = value.integer else { throw mismatch(object, key, "an integer") }
        return number
    }

    /// What `value` is, in a word or two, for errors.
    static func kind(of value: ArchivedValue) -> String {
        switch value {
        case .null: return "nil"
        case .bool: return "a Boolean"
        case .integer: return "an integer"
        case .real: return "a real number"
        case .string: return "a string"
        case .data: return "data"
        case .date: return "a date"
        case .array: return "an array"
        case .set: return "a set"
        case .dictionary: return "a dictionary"
        case .object(let object): return "class \(object.className)"
        }
    }

    func mismatch(_ object: ArchivedObject, _ key: String, _ expected: String)
        -> ArchivedPredicateError
    {
        ArchivedPredicateError(
            className: object.className,
            reason:
                "archived \(object.className) (object \(object.index)): \(key) is not \(expected)")
    }
}
