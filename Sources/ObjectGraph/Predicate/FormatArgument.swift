import Foundation

/// The arguments of a format string, consumed in order by `%@`, `%K`, `%d`….
struct FormatArguments {
    private let values: [Any?]
    private var position = 0

    init(_ values: [Any?]) { self.values = values }

    /// How many arguments were given.
    var count: Int { values.count }

    /// The next argument, wrapped so that a nil argument is `.some(nil)`; nil when none is left.
    mutating func next() -> Any?? {
        guard position < values.count else { return nil }
        defer { position += 1 }
        return .some(values[position])
    }
}

/// Converts Swift values given as format arguments into expressions.
enum FormatArgument {
    /// Why an argument does not fit its conversion.
    struct Mismatch: Error {
        let expected: String
        let found: String
    }

    static func expression(for conversion: String, _ argument: Any?) throws(Mismatch)
        -> Expression
    {
        guard let last = conversion.last else {
            throw Mismatch(expected: "a conversion", found: "%")
        }
        switch last {
        case "@":
            return try expression(from: argument)
        case "K":
            if let expression = unwrap(argument) as? Expression, case .keyPath = expression {
                return expression
            }
            if let path = argument as? PredicateKeyPath { return .keyPath(path) }
            guard let text = string(from: argument), !text.isEmpty else {
                throw Mismatch(expected: "a key path string for %K", found: typeName(argument))
            }
            return .keyPath(PredicateKeyPath(text))
        case "s", "S":
            guard let text = string(from: argument) else {
                throw Mismatch(expected: "a string for %\(conversion)", found: typeName(argument))
            }
            return .constant(.string(text))
        case "f", "F", "e", "E", "g", "G":
            switch scalar(from: unwrap(argument)) {
            case .integer(let n)?: return .constant(.double(Double(n)))
            case .double(let d)?: return .constant(.double(d))
            case .decimal(let d)?:
                return .constant(.double(NSDecimalNumber(decimal: d).doubleValue))
            case .bool(let b)?: return .constant(.double(b ? 1 : 0))
            default:
                throw Mismatch(expected: "a number for %\(conversion)", found: typeName(argument))
            }
        default:
            switch scalar(from: unwrap(argument)) {
            case .integer(let n)?: return .constant(.integer(n))
            case .bool(let b)?: return .constant(.integer(b ? 1 : 0))
            case .double(let d)? where d.rounded(.towardZero) == d && abs(d) < 9.2e18:
                return .constant(.integer(Int64(d)))
            default:
                throw Mismatch(expected: "an integer for %\(conversion)", found: typeName(argument))
            }
        }
    }

    /// Any supported Swift value as a constant expression: scalars, ``Value``, ``ObjectID``,
    /// ``Expression``, arrays, sets and dictionaries (their values), and objects with an ID.
    static func expression(from argument: Any?) throws(Mismatch) -> Expression {
        guard let argument = unwrap(argument) else { return .constant(.null) }
        if let expression = argument as? Expression { return expression }
        if let value = scalar(from: argument) { return .constant(value) }
        if let value = argument as? EvaluationValue { return try expression(from: value) }
        if let object = argument as? any KeyValueReadable, let id = object.predicateObjectID {
            return .constant(.objectID(id))
        }
        if let array = argument as? [Any] {
            var elements: [Expression] = []
            for element in array { elements.append(try expression(from: element)) }
            return .aggregate(elements)
        }
        if let set = argument as? Set<AnyHashable> {
            var elements: [Expression] = []
            for element in set { elements.append(try expression(from: element.base)) }
            return .aggregate(elements.sorted { $0.description < $1.description })
        }
        if let dictionary = argument as? [AnyHashable: Any] {
            var elements: [(String, Expression)] = []
            for (key, element) in dictionary {
                elements.append(("\(key.base)", try expression(from: element)))
            }
            return .aggregate(elements.sorted { $0.0 < $1.0 }.map(\.1))
        }
        throw Mismatch(expected: "a value of a supported type", found: typeName(argument))
    }

    static func expression(from value: EvaluationValue) throws(Mismatch) -> Expression {
        switch value {
        case .value(let scalar): return .constant(scalar)
        case .collection(let items):
            var elements: [Expression] = []
            for item in items { elements.append(try expression(from: item)) }
            return .aggregate(elements)
        case .dictionary(let dictionary):
            var elements: [Expression] = []
            for key in dictionary.keys.sorted() {
                if let item = dictionary[key] { elements.append(try expression(from: item)) }
            }
            return .aggregate(elements)
        case .object(let object):
            guard let id = object.predicateObjectID else {
                throw Mismatch(expected: "an object with an ID", found: "\(type(of: object))")
            }
            return .constant(.objectID(id))
        }
    }

    /// Removes any level of optional wrapping; nil for a nil optional or `NSNull`.
    static func unwrap(_ argument: Any?) -> Any? {
        guard var value = argument else { return nil }
        while true {
            let mirror = Mirror(reflecting: value)
            guard mirror.displayStyle == .optional else { break }
            guard let child = mirror.children.first else { return nil }
            value = child.value
        }
        if value is NSNull { return nil }
        return value
    }

    static func string(from argument: Any?) -> String? {
        switch unwrap(argument) {
        case let text as String: return text
        case let text as Substring: return String(text)
        case let character as Character: return String(character)
        case .value(.string(let text))? as EvaluationValue?: return text
        case let value as Value:
            if case .string(let text) = value { return text }
            return nil
        default: return nil
        }
    }

    /// A scalar Swift value as a ``Value``, or nil when it is not one.
    static func scalar(from argument: Any?) -> Value? {
        guard let argument else { return .null }
        let type = Swift.type(of: argument)
        if type == Bool.self, let b = argument as? Bool { return .bool(b) }
        if let value = argument as? Value { return value }
        if let id = argument as? ObjectID { return .objectID(id) }
        if let text = argument as? String, type == String.self { return .string(text) }
        if let text = argument as? Substring { return .string(String(text)) }
        if let n = integer(from: argument, type: type) { return n }
        if type == Double.self, let d = argument as? Double { return .double(d) }
        if type == Float.self, let f = argument as? Float { return .double(Double(f)) }
        if type == Decimal.self, let d = argument as? Decimal { return .decimal(d) }
        if let date = argument as? Date { return .date(date) }
        if let data = argument as? Data { return .data(data) }
        if let uuid = argument as? UUID { return .uuid(uuid) }
        if let url = argument as? URL { return .uri(url) }
        if let number = argument as? NSNumber { return value(of: number) }
        if let text = argument as? String { return .string(text) }
        return nil
    }

    private static func integer(from argument: Any, type: Any.Type) -> Value? {
        switch argument {
        case let n as Int where type == Int.self: return .integer(Int64(n))
        case let n as Int64 where type == Int64.self: return .integer(n)
        case let n as Int32 where type == Int32.self: return .integer(Int64(n))
        case let n as Int16 where type == Int16.self: return .integer(Int64(n))
        case let n as Int8 where type == Int8.self: return .integer(Int64(n))
        case let n as UInt where type == UInt.self: return unsigned(UInt64(n))
        case let n as UInt64 where type == UInt64.self: return unsigned(n)
        case let n as UInt32 where type == UInt32.self: return .integer(Int64(n))
        case let n as UInt16 where type == UInt16.self: return .integer(Int64(n))
        case let n as UInt8 where type == UInt8.self: return .integer(Int64(n))
        default: return nil
        }
    }

    private static func unsigned(_ n: UInt64) -> Value {
        n <= UInt64(Int64.max) ? .integer(Int64(n)) : .decimal(Decimal(n))
    }

    /// An `NSNumber` (as from `JSONSerialization`) as an integer, double or Boolean.
    static func value(of number: NSNumber) -> Value {
        let objCType = String(cString: number.objCType)
        if objCType == "c", "\(Swift.type(of: number))".contains("Boolean") {
            return .bool(number.boolValue)
        }
        switch objCType {
        case "f", "d":
            return .double(number.doubleValue)
        case "Q":
            let n = number.uint64Value
            return n <= UInt64(Int64.max) ? .integer(Int64(n)) : .double(number.doubleValue)
        default:
            return .integer(number.int64Value)
        }
    }

    static func typeName(_ argument: Any?) -> String {
        guard let value = unwrap(argument) else { return "nil" }
        if let value = value as? Value { return "the value \(value)" }
        if let expression = value as? Expression { return "the expression \(expression)" }
        return "a value of type \(Swift.type(of: value))"
    }
}
