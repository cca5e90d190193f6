import Foundation

/// A value met while evaluating a predicate: a scalar, an object that answers key lookups,
/// a collection (to-many relationship, array or set) or a dictionary.
///
/// Literals build records and collections directly:
///
/// ```swift
/// let book: EvaluationValue = ["title": "Dune", "year": 1965, "tags": ["sf", "classic"]]
/// try Predicate(format: "ANY tags == 'sf'").evaluate(with: book)  // true
/// ```
public enum EvaluationValue {
    /// A scalar (`.null` for nil).
    case value(Value)
    /// An object whose properties are read with ``KeyValueReadable/predicateValue(forKey:)``.
    case object(any KeyValueReadable)
    /// An ordered or unordered collection (to-many relationships, arrays, sets).
    case collection([EvaluationValue])
    /// A dictionary: a record whose keys are looked up, and whose values `IN` tests.
    case dictionary([String: EvaluationValue])

    /// `nil`.
    public static var null: EvaluationValue { .value(.null) }

    /// Whether this is nil.
    public var isNull: Bool {
        if case .value(.null) = self { return true }
        return false
    }
}

extension EvaluationValue: ExpressibleByNilLiteral {
    /// Creates nil.
    public init(nilLiteral: ()) { self = .value(.null) }
}

extension EvaluationValue: ExpressibleByIntegerLiteral {
    /// Creates an integer.
    public init(integerLiteral value: Int64) { self = .value(.integer(value)) }
}

extension EvaluationValue: ExpressibleByFloatLiteral {
    /// Creates a double.
    public init(floatLiteral value: Double) { self = .value(.double(value)) }
}

extension EvaluationValue: ExpressibleByBooleanLiteral {
    /// Creates a Boolean.
    public init(booleanLiteral value: Bool) { self = .value(.bool(value)) }
}

extension EvaluationValue: ExpressibleByStringLiteral {
    /// Creates a string.
    public init(stringLiteral value: String) { self = .value(.string(value)) }
}

extension EvaluationValue: ExpressibleByArrayLiteral {
    /// Creates a collection.
    public init(arrayLiteral elements: EvaluationValue...) { self = .collection(elements) }
}

extension EvaluationValue: ExpressibleByDictionaryLiteral {
    /// Creates a dictionary (a record).
    public init(dictionaryLiteral elements: (String, EvaluationValue)...) {
        self = .dictionary(Dictionary(elements, uniquingKeysWith: { _, last in last }))
    }
}

extension EvaluationValue: CustomStringConvertible {
    /// A short rendering for messages.
    public var description: String {
        switch self {
        case .value(let v): return v.description
        case .object(let o): return o.predicateObjectID.map { "<\($0)>" } ?? "<\(type(of: o))>"
        case .collection(let items):
            if items.count > 8 { return "{\(items.count) elements}" }
            return "{" + items.map(\.description).joined(separator: ", ") + "}"
        case .dictionary(let d): return "{\(d.count) keys}"
        }
    }
}

extension EvaluationValue {
    /// Converts a Swift value: scalars (as for `%@`), ``Value``, ``ObjectID``, string-keyed
    /// dictionaries (records), arrays and sets (collections), ``KeyValueReadable`` objects and
    /// `nil`. Returns nil for a value of another type.
    ///
    /// ```swift
    /// let row = EvaluationValue(converting: ["name": "Ada", "langs": ["en", "fr"]] as [String: Any])
    /// ```
    public init?(converting value: Any?) {
        self.init(converting: value, depth: 0)
    }

    private init?(converting value: Any?, depth: Int) {
        guard depth < 256 else { return nil }
        guard let value = FormatArgument.unwrap(value) else {
            self = .null
            return
        }
        if let evaluation = value as? EvaluationValue {
            self = evaluation
        } else if let scalar = FormatArgument.scalar(from: value) {
            self = .value(scalar)
        } else if let dictionary = value as? [String: Any] {
            var record: [String: EvaluationValue] = [:]
            for (key, item) in dictionary {
                guard let converted = EvaluationValue(converting: item, depth: depth + 1) else {
                    return nil
                }
                record[key] = converted
            }
            self = .dictionary(record)
        } else if let array = value as? [Any] {
            var items: [EvaluationValue] = []
            for item in array {
                guard let converted = EvaluationValue(converting: item, depth: depth + 1) else {
                    return nil
                }
                items.append(converted)
            }
            self = .collection(items)
        } else if let set = value as? Set<AnyHashable> {
            guard let converted = EvaluationValue(converting: set.map(\.base), depth: depth) else {
                return nil
            }
            self = converted
        } else if let object = value as? any KeyValueReadable {
            self = .object(object)
        } else {
            return nil
        }
    }
}
