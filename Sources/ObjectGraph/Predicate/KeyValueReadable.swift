/// Anything a predicate can be evaluated against: it answers the value for a key.
///
/// `ManagedObject` adopts it; so do ``EvaluationValue``, string-keyed dictionaries of
/// ``EvaluationValue`` and arrays of ``EvaluationValue``.
///
/// ```swift
/// struct Person: KeyValueReadable {
///     var name: String
///     var age: Int
///     func predicateValue(forKey key: String) throws -> EvaluationValue {
///         switch key {
///         case "name": return .value(.string(name))
///         case "age": return .value(.integer(Int64(age)))
///         default: throw PredicateEvaluationError.unknownKey(key, in: "Person")
///         }
///     }
/// }
/// try Predicate(format: "age >= 18").evaluate(with: Person(name: "Ada", age: 36))  // true
/// ```
public protocol KeyValueReadable {
    /// The value for `key`: a scalar, a related object, or a collection for a to-many key.
    /// Missing values are `.null`; throw for a key the type does not have.
    func predicateValue(forKey key: String) throws -> EvaluationValue

    /// The object's ID, if it has one: `SELF == %@` compares IDs. Defaults to nil.
    var predicateObjectID: ObjectID? { get }
}

extension KeyValueReadable {
    /// No ID.
    public var predicateObjectID: ObjectID? { nil }
}

extension EvaluationValue: KeyValueReadable {
    /// Reads `key` from an object or dictionary; on a collection, reads it from every element
    /// (key-value coding's array rule); nil stays nil; a scalar answers the keys of
    /// the fixed list of scalar keys (`length` of a string, `intValue`, …).
    public func predicateValue(forKey key: String) throws -> EvaluationValue {
        switch self {
        case .object(let object):
            return try object.predicateValue(forKey: key)
        case .dictionary(let dictionary):
            return dictionary[key] ?? .null
        case .collection(let items):
            return .collection(try items.map { try $0.predicateValue(forKey: key) })
        case .value(.null):
            return .null
        case .value(let scalar):
            return try ScalarKeys.value(of: scalar, forKey: key)
        }
    }

    /// The ID of an object, or of an object ID scalar.
    public var predicateObjectID: ObjectID? {
        switch self {
        case .object(let object): return object.predicateObjectID
        case .value(.objectID(let id)): return id
        default: return nil
        }
    }
}

extension Dictionary: KeyValueReadable where Key == String, Value == EvaluationValue {
    /// The value for `key`, or nil when absent.
    public func predicateValue(forKey key: String) throws -> EvaluationValue {
        self[key] ?? .null
    }
}

extension Array: KeyValueReadable where Element == EvaluationValue {
    /// The values of `key` in every element.
    public func predicateValue(forKey key: String) throws -> EvaluationValue {
        try EvaluationValue.collection(self).predicateValue(forKey: key)
    }
}
