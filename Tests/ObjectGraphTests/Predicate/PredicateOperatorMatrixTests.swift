import Foundation
import ObjectGraph
import Testing

// Foundation also declares `Predicate` and `Expression`.
private typealias Predicate = ObjectGraph.Predicate
private typealias Expression = ObjectGraph.Expression

/// Every operator × every option × every value type: results obey the documented invariants,
/// and anything else is a typed error, never a trap.
@Suite struct PredicateOperatorMatrixTests {
    static let samples: [Value] = [
        .null, .integer(3), .double(2.5), .decimal(Decimal(string: "2.5") ?? 0), .bool(true),
        .string("Éa"), .string("ea"), .date(Date(timeIntervalSinceReferenceDate: 9)),
        .data(Data([1])), .uuid(UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F") ?? UUID()),
        .uri(URL(fileURLWithPath: "/tmp")),
        .objectID(ObjectID(entityName: "E", storeIdentifier: "S", key: .permanent(1))),
    ]
    static let optionSets: [ComparisonOptions] = [
        [], .caseInsensitive, .diacriticInsensitive, [.caseInsensitive, .diacriticInsensitive],
        .normalized, .localeSensitive,
    ]

    private func outcome(
        _ left: Value, _ op: ComparisonOperator, _ right: Expression,
        _ options: ComparisonOptions
    ) -> Result<Bool, PredicateEvaluationError> {
        let predicate = Predicate.comparison(
            Comparison(.constant(left), op, right, options: options))
        do {
            return .success(try predicate.evaluate(with: [:] as [String: EvaluationValue]))
        } catch let error as PredicateEvaluationError {
            return .failure(error)
        } catch {
            Issue.record("untyped error \(error)")
            return .success(false)
        }
    }

    @Test(arguments: ComparisonOperator.allCases)
    func operatorOverAllTypesAndOptions(_ op: ComparisonOperator) throws {
        for options in Self.optionSets {
            for left in Self.samples {
                for right in Self.samples {
                    let rhs: Expression =
                        op == .between
                        ? .aggregate([.constant(right), .constant(right)]) : .constant(right)
                    let result = outcome(left, op, rhs, options)
                    let isString: (Value) -> Bool = { if case .string = $0 { true } else { false } }
                    if left.isNull || right.isNull {
                        // Nil never throws; only equality (and membership of nil) can hold.
                        guard case .success(let holds) = result else {
                            Issue.record("\(left) \(op.symbol) \(right) threw with nil")
                            continue
                        }
                        switch op {
                        case .equal: #expect(holds == (left.isNull && right.isNull))
                        case .notEqual: #expect(holds == !(left.isNull && right.isNull))
                        default: #expect(!holds)
                        }
                        continue
                    }
                    switch op {
                    case .equal, .notEqual:
                        let equal = try outcome(left, .equal, rhs, options).get()
                        let notEqual = try outcome(left, .notEqual, rhs, options).get()
                        #expect(equal != notEqual)
                        if left == right { #expect(equal) }
                    case .lessThan, .greaterThan:
                        if left == right { #expect((try? result.get()) != true) }
                    case .lessThanOrEqual, .greaterThanOrEqual, .between:
                        if left == right, case .success(let holds) = result { #expect(holds) }
                    case .beginsWith, .endsWith, .like, .matches, .contains, .in:
                        if !isString(left) || !isString(right) {
                            guard case .failure(let error) = result else {
                                Issue.record("\(left) \(op.symbol) \(right) should be a type error")
                                continue
                            }
                            #expect("\(error)".hasPrefix("type mismatch"))
                        }
                    }
                }
            }
        }
    }

    @Test func optionsOnStrings() throws {
        let expectations: [(ComparisonOperator, String, String, [Bool])] = [
            // Results for [], [c], [d], [cd].
            (.equal, "Éa", "ea", [false, false, false, true]),
            (.equal, "Éa", "éa", [false, true, false, true]),
            (.equal, "Éa", "Ea", [false, false, true, true]),
            (.beginsWith, "Éa", "e", [false, false, false, true]),
            (.endsWith, "aÉ", "É", [true, true, true, true]),
            (.contains, "xÉy", "e", [false, false, false, true]),
            (.like, "Éa", "e?", [false, false, false, true]),
            (.matches, "Éa", "e.", [false, false, false, true]),
            (.in, "e", "xÉy", [false, false, false, true]),
            (.lessThan, "a", "B", [false, true, false, true]),
        ]
        for (op, left, right, results) in expectations {
            for (options, expected) in zip(Self.optionSets.prefix(4), results) {
                let result = outcome(.string(left), op, .constant(.string(right)), options)
                #expect(
                    (try? result.get()) == expected,
                    "\(left) \(op.symbol)[\(options.letters)] \(right)")
            }
        }
    }
}
