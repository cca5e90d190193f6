import Foundation
import ObjectGraph

// Foundation also declares `Predicate` and `Expression`.
private typealias Predicate = ObjectGraph.Predicate
private typealias Expression = ObjectGraph.Expression

/// Builds random predicate trees from a seed, covering every node kind, for the round-trip
/// property test and the fuzz test.
struct PredicateGenerator {
    var random: PredicateRandom

    init(seed: UInt64) { random = PredicateRandom(seed: seed) }

    static let keys = [
        "name", "age", "tags", "kids", "dept", "in", "size", "first", "x_1", "Ünï", "nothing",
        "self", "length", "@lastObject", "@count",
    ]
    static let variables = ["X", "min", "in", "v_2"]
    static let selectors = [
        "sum:", "count:", "min:", "max:", "average:", "median:", "stddev:", "add:to:",
        "from:subtract:", "multiply:by:", "divide:by:", "modulus:by:", "sqrt:", "log:", "ln:",
        "raise:toPower:", "exp:", "floor:", "ceiling:", "abs:", "trunc:", "uppercase:",
        "lowercase:", "bitwiseAnd:with:", "bitwiseOr:with:", "bitwiseXor:with:", "leftshift:by:",
        "rightshift:by:", "onesComplement:", "noindex:",
    ]

    mutating func int(_ bound: Int) -> Int { Int(random.next() % UInt64(max(bound, 1))) }
    mutating func chance(_ percent: Int) -> Bool { int(100) < percent }
    mutating func pick<T>(_ items: [T]) -> T { items[int(items.count)] }

    mutating func predicate(depth: Int) -> ObjectGraph.Predicate {
        let roll = depth <= 0 ? 100 : int(100)
        switch roll {
        case 0..<8: return .constant(chance(50))
        case 8..<18: return .and((0..<(2 + int(2))).map { _ in predicate(depth: depth - 1) })
        case 18..<28: return .or((0..<(2 + int(2))).map { _ in predicate(depth: depth - 1) })
        case 28..<36: return .not(predicate(depth: depth - 1))
        default: return .comparison(comparison(depth: depth - 1))
        }
    }

    mutating func comparison(depth: Int) -> Comparison {
        var options: ComparisonOptions = []
        for option in [
            ComparisonOptions.caseInsensitive, .diacriticInsensitive, .normalized, .localeSensitive,
        ]
        where chance(20) {
            options.insert(option)
        }
        return Comparison(
            expression(depth: depth), pick(ComparisonOperator.allCases), expression(depth: depth),
            modifier: pick(ComparisonModifier.allCases), options: options)
    }

    mutating func keyPath() -> PredicateKeyPath {
        var components: [PredicateKeyPath.Component] = []
        for _ in 0..<(1 + int(3)) {
            components.append(
                chance(25) ? .operator(pick(CollectionOperator.allCases)) : .key(pick(Self.keys)))
        }
        return PredicateKeyPath(components)
    }

    mutating func value() -> Value {
        switch int(12) {
        case 0: return .null
        case 1: return .integer(Int64(bitPattern: random.next()) >> Int64(int(64)))
        case 2: return .double(Double(Int64(bitPattern: random.next()) >> 20) / 1024)
        case 3:
            return .double(
                pick([
                    0.1, 1e-300, 1.7976931348623157e308, -2.5e-7, .leastNonzeroMagnitude, .infinity,
                ]))
        case 4:
            return .decimal(
                Decimal(string: pick(["1.5", "-0.001", "123456789.123456789", "0"])) ?? 0)
        case 5: return .string(string())
        case 6: return .bool(chance(50))
        case 7: return .date(Date(timeIntervalSinceReferenceDate: Double(int(1_000_000)) / 8))
        case 8: return .data(Data((0..<int(6)).map { _ in UInt8(int(256)) }))
        case 9:
            return .uuid(
                UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5\(int(10))") ?? UUID())
        case 10:
            return .uri(
                URL(string: pick(["https://a.b/c?d=e", "file:///tmp/x", "mailto:a@b"]))
                    ?? URL(fileURLWithPath: "/"))
        default:
            let key: ObjectID.Key = chance(50) ? .permanent(Int64(int(1000))) : .temporary(UUID())
            return .objectID(
                ObjectID(
                    entityName: pick(["Book", "A_b"]), storeIdentifier: chance(50) ? "S1" : "",
                    key: key))
        }
    }

    mutating func string() -> String {
        let pieces = [
            "a", "É", "\"", "'", "\\", "\n", "\t", "%@", "$X", " ", "*", "?", "\u{1}", "🙂",
            "e\u{301}", "AND",
        ]
        return (0..<int(5)).map { _ in pick(pieces) }.joined()
    }

    mutating func expression(depth: Int) -> ObjectGraph.Expression {
        let roll = depth <= 0 ? int(40) : int(100)
        switch roll {
        case 0..<15: return .constant(value())
        case 15..<30: return .keyPath(keyPath())
        case 30..<35: return .variable(pick(Self.variables))
        case 35..<40: return .evaluatedObject
        case 40..<47: return .aggregate((0..<int(4)).map { _ in expression(depth: depth - 1) })
        case 47..<53:
            let bases: [Expression] = [
                .evaluatedObject, .variable("x"), .keyPath(keyPath()), expression(depth: depth - 1),
            ]
            return .member(pick(bases), keyPath())
        case 53..<60:
            let selector: ExpressionIndex = pick([
                .first, .last, .size, .expression(expression(depth: depth - 1)),
            ])
            return .index(expression(depth: depth - 1), selector)
        case 60..<66:
            let selector = pick(Self.selectors)
            let arity = selector.filter { $0 == ":" }.count
            return .function(selector, (0..<arity).map { _ in expression(depth: depth - 1) })
        case 66..<69:
            return .functionCall(
                expression(depth: depth - 1), pick(["length", "uppercaseString", "f:"]),
                chance(50) ? [] : [expression(depth: depth - 1)])
        case 69..<80:
            return .arithmetic(
                expression(depth: depth - 1), pick(ArithmeticOperator.allCases),
                expression(depth: depth - 1))
        case 80..<85: return .negate(expression(depth: depth - 1))
        case 85..<90:
            return .subquery(
                expression(depth: depth - 1), pick(Self.variables), predicate(depth: depth - 1))
        case 90..<95:
            return .ternary(
                predicate(depth: depth - 1), expression(depth: depth - 1),
                expression(depth: depth - 1))
        default:
            return .cast(
                .keyPath(keyPath()), pick(["NSNumber", "NSString", "NSDate", "NSDecimalNumber"]))
        }
    }
}
