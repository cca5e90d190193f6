/// Follows a pre-split key path from a value: keys through objects and dictionaries, keys across
/// collections (flattening to-many of to-many), and collection operators.
enum KeyPathWalker {
    static func walk(
        _ start: EvaluationValue, _ components: ArraySlice<PredicateKeyPath.Component>
    ) throws -> EvaluationValue {
        var current = start
        var index = components.startIndex
        while index < components.endIndex {
            switch components[index] {
            case .key(let key):
                current = try lookup(current, key)
            case .operator(let op):
                return try apply(op, to: current, rest: components[(index + 1)...])
            }
            index += 1
        }
        return current
    }

    /// The value for `key`; across a collection, the values of every element, flattened.
    static func lookup(_ value: EvaluationValue, _ key: String) throws -> EvaluationValue {
        guard case .collection(let items) = value else {
            return try value.predicateValue(forKey: key)
        }
        var result: [EvaluationValue] = []
        result.reserveCapacity(items.count)
        for item in items {
            let found = try lookup(item, key)
            if case .collection(let inner) = found {
                result.append(contentsOf: inner)
            } else {
                result.append(found)
            }
        }
        return .collection(result)
    }

    /// Applies `@op`, with the rest of the path read from each element first
    /// (`items.@sum.price`).
    static func apply(
        _ op: CollectionOperator, to value: EvaluationValue,
        rest: ArraySlice<PredicateKeyPath.Component>
    ) throws -> EvaluationValue {
        var elements: [EvaluationValue]
        switch value {
        case .collection(let items): elements = items
        case .dictionary(let dictionary): elements = Array(dictionary.values)
        case .value(.null): elements = []
        case .value(.string(let text)) where op == .count:
            return .value(.integer(Int64(text.count)))
        default:
            throw PredicateEvaluationError.typeMismatch(
                "@\(op.rawValue) needs a collection, not \(value)")
        }
        if op == .count { return .value(.integer(Int64(elements.count))) }
        if !rest.isEmpty { elements = try elements.map { try walk($0, rest) } }
        switch op {
        case .count:
            return .value(.integer(Int64(elements.count)))
        case .sum:
            return try Aggregates.sum(elements)
        case .avg:
            return try Aggregates.average(elements)
        case .min:
            return try Aggregates.extreme(elements, smallest: true)
        case .max:
            return try Aggregates.extreme(elements, smallest: false)
        case .unionOfObjects:
            return .collection(elements.filter { !$0.isNull })
        case .distinctUnionOfObjects:
            return .collection(try Aggregates.distinct(elements.filter { !$0.isNull }))
        case .unionOfArrays:
            return .collection(try Aggregates.flatten(elements))
        case .distinctUnionOfArrays, .distinctUnionOfSets:
            return .collection(try Aggregates.distinct(Aggregates.flatten(elements)))
        }
    }
}
