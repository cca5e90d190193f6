import Foundation
import ObjectGraph

/// A record with one property of every kind, shared by the evaluation tests.
enum PredicateFixture {
    static let born = Date(timeIntervalSinceReferenceDate: 1_000)
    static let id = UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F") ?? UUID()

    static var person: EvaluationValue {
        [
            "name": "Café", "nick": "jo", "age": 30, "height": 1.75,
            "score": .value(.decimal(Decimal(string: "12.5") ?? 0)), "flag": true,
            "born": .value(.date(born)), "data": .value(.data(Data([1, 2]))),
            "id": .value(.uuid(id)),
            "tags": ["a", "b", "B"], "empty": [], "nothing": nil, "numbers": [1, 2.5, 3],
            "kids": [
                ["name": "Ann", "age": 5, "toys": [["name": "ball"]]],
                ["name": "Bob", "age": 7, "toys": []],
            ],
            "dept": ["name": "R&D", "boss": ["name": "Zed"]],
            "dict": ["x": 1, "y": 2],
        ]
    }

    static func evaluate(
        _ format: String, _ object: EvaluationValue = person, args: [Any?] = [],
        variables: [String: EvaluationValue] = [:]
    ) throws -> Bool {
        try Predicate(format: format, argumentArray: args).evaluate(
            with: object, variables: variables)
    }

    static func value(_ format: String, _ object: EvaluationValue = person) throws
        -> EvaluationValue
    {
        try Expression(format: format).evaluate(with: object)
    }
}

/// A seeded generator (SplitMix64), so that property and fuzz tests are reproducible.
struct PredicateRandom: RandomNumberGenerator {
    private var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
