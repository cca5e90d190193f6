import Foundation

/// Aggregations over collections, shared by the `@sum`-style key path operators and the
/// `sum:`-style functions. Nil elements are skipped.
enum Aggregates {
    static func scalars(_ elements: [EvaluationValue], _ what: String) throws -> [Value] {
        var result: [Value] = []
        for element in elements {
            guard case .value(let scalar) = element else {
                throw PredicateEvaluationError.typeMismatch("\(what) needs scalars, not \(element)")
            }
            if !scalar.isNull { result.append(scalar) }
        }
        return result
    }

    static func sum(_ elements: [EvaluationValue]) throws -> EvaluationValue {
        var total: EvaluationValue = .value(.integer(0))
        for scalar in try scalars(elements, "a sum") {
            total = try Arithmetic.apply(.add, total, .value(scalar))
        }
        return total
    }

    static func doubles(_ elements: [EvaluationValue], _ what: String) throws -> [Double] {
        try scalars(elements, what).map { scalar in
            guard let d = Arithmetic.double(scalar) else {
                throw PredicateEvaluationError.typeMismatch("\(what) needs numbers, not \(scalar)")
            }
            return d
        }
    }

    static func average(_ elements: [EvaluationValue]) throws -> EvaluationValue {
        let values = try scalars(elements, "an average")
        if values.isEmpty { return .null }
        if values.contains(where: { if case .decimal = $0 { true } else { false } }) {
            guard case .value(let total) = try sum(elements), let d = Arithmetic.decimal(total)
            else { return .null }
            return .value(.decimal(d / Decimal(values.count)))
        }
        let numbers = try doubles(elements, "an average")
        return .value(.double(numbers.reduce(0, +) / Double(numbers.count)))
    }

    static func median(_ elements: [EvaluationValue]) throws -> EvaluationValue {
        let numbers = try doubles(elements, "a median").sorted()
        if numbers.isEmpty { return .null }
        let middle = numbers.count / 2
        if numbers.count % 2 == 1 { return .value(.double(numbers[middle])) }
        return .value(.double((numbers[middle - 1] + numbers[middle]) / 2))
    }

    static func standardDeviation(_ elements: [EvaluationValue]) throws -> EvaluationValue {
        let numbers = try doubles(elements, "a standard deviation")
        if numbers.isEmpty { return .null }
        let mean = numbers.reduce(0, +) / Double(numbers.count)
        let variance = numbers.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / Double(numbers.count)
        return .value(.double(variance.squareRoot()))
    }

    /// The most frequent values, in first-seen order.
    static func mode(_ elements: [EvaluationValue]) throws -> EvaluationValue {
        let values = try scalars(elements, "a mode")
        var counts: [Value: Int] = [:]
        var order: [Value] = []
        for value in values {
            if counts[value] == nil { order.append(value) }
            counts[value, default: 0] += 1
        }
        let best = counts.values.max() ?? 0
        return .collection(order.filter { counts[$0] == best }.map(EvaluationValue.value))
    }

    static func extreme(_ elements: [EvaluationValue], smallest: Bool) throws -> EvaluationValue {
        var best: EvaluationValue?
        for element in elements where !element.isNull {
            guard let current = best else {
                best = element
                continue
            }
            guard let order = try ValueComparison.order(element, current, options: []) else {
                continue
            }
            if smallest ? order == .orderedAscending : order == .orderedDescending {
                best = element
            }
        }
        return best ?? .null
    }

    /// The elements without duplicates (by predicate equality: `1` and `1.0` are one), in
    /// first-seen order. Scalars are bucketed by a normalized key, so this is linear for them.
    static func distinct(_ elements: [EvaluationValue]) throws -> [EvaluationValue] {
        var result: [EvaluationValue] = []
        var buckets: [Value: [Int]] = [:]
        var others: [Int] = []
        for element in elements {
            let key: Value?
            if case .value(let scalar) = element { key = bucketKey(scalar) } else { key = nil }
            let candidates = key.map { buckets[$0] ?? [] } ?? others
            var seen = false
            for index in candidates
            where try ValueComparison.equal(result[index], element, options: []) {
                seen = true
                break
            }
            if seen { continue }
            if let key {
                buckets[key, default: []].append(result.count)
            } else {
                others.append(result.count)
            }
            result.append(element)
        }
        return result
    }

    /// Numbers of every kind share a bucket by their double value.
    private static func bucketKey(_ scalar: Value) -> Value {
        if Arithmetic.isNumeric(scalar), let d = Arithmetic.double(scalar) { return .double(d) }
        return scalar
    }

    static func flatten(_ elements: [EvaluationValue]) throws -> [EvaluationValue] {
        var result: [EvaluationValue] = []
        for element in elements {
            switch element {
            case .collection(let items): result.append(contentsOf: items)
            case .value(.null): continue
            default:
                throw PredicateEvaluationError.typeMismatch(
                    "a union of arrays needs collections, not \(element)")
            }
        }
        return result
    }
}
