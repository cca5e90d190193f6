/// Follows a pre-split key path from a value: keys through objects and dictionaries, keys across
/// collections (flattening to-many of to-many), keys of scalars (``ScalarKeys``: `name.length`),
/// `self`, and collection operators (an unknown `@name` throws
/// ``PredicateEvaluationError/unknownCollectionOperator(_:)``).
enum KeyPathWalker {
    /// The value at the end of `components` from `start`. One loop over the components (a
    /// collection operator's result continues in it too), so a long path neither recurses
    /// nor costs more than linear time.
    static func walk(
        _ start: EvaluationValue, _ components: ArraySlice<PredicateKeyPath.Component>
    ) throws -> EvaluationValue {
        var current = start
        var index = components.startIndex
        while index < components.endIndex {
            switch components[index] {
            case .key("self"):
                // `self` (written `#self`) is the value itself, as in key-value coding:
                // `scores.@sum.#self`.
                index += 1
            case .key(let key) where key.hasPrefix("@"):
                guard let op = CollectionOperator(rawValue: String(key.dropFirst())) else {
                    throw PredicateEvaluationError.unknownCollectionOperator(key)
                }
                (current, index) = try apply(op, to: current, rest: components[(index + 1)...])
            case .key(let key):
                current = try lookup(current, key)
                index += 1
            case .operator(let op):
                (current, index) = try apply(op, to: current, rest: components[(index + 1)...])
            }
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

    /// Applies `@op`. The keys after it, up to the next collection operator, are read from each
    /// element first (`items.@sum.price`); the path then continues from the result
    /// (`items.@distinctUnionOfObjects.tag.@count`) at the index returned with it.
    static func apply(
        _ op: CollectionOperator, to value: EvaluationValue,
        rest: ArraySlice<PredicateKeyPath.Component>
    ) throws -> (EvaluationValue, continuingAt: Int) {
        var elements: [EvaluationValue]
        switch value {
        case .collection(let items): elements = items
        case .dictionary(let dictionary): elements = Array(dictionary.values)
        case .value(.null): elements = []
        case .value(.string(let text)) where op == .count:
            return (.value(.integer(Int64(text.count))), rest.startIndex)
        default:
            throw PredicateEvaluationError.typeMismatch(
                "@\(op.rawValue) needs a collection, not \(value)")
        }
        if op == .count { return (.value(.integer(Int64(elements.count))), rest.startIndex) }
        let end =
            rest.firstIndex { component in
                if case .operator = component { return true }
                return false
            } ?? rest.endIndex
        let perElement = rest[rest.startIndex..<end]
        if !perElement.isEmpty { elements = try elements.map { try walk($0, perElement) } }
        let result: EvaluationValue
        switch op {
        case .count:
            result = .value(.integer(Int64(elements.count)))
        case .sum:
            result = try Aggregates.sum(elements)
        case .avg:
            result = try Aggregates.average(elements)
        case .min:
            result = try Aggregates.extreme(elements, smallest: true)
        case .max:
            result = try Aggregates.extreme(elements, smallest: false)
        case .unionOfObjects:
            result = .collection(elements.filter { !$0.isNull })
        case .distinctUnionOfObjects:
            result = .collection(try Aggregates.distinct(elements.filter { !$0.isNull }))
        case .unionOfArrays:
            result = .collection(try Aggregates.flatten(elements))
        case .distinctUnionOfArrays, .distinctUnionOfSets:
            result = .collection(try Aggregates.distinct(Aggregates.flatten(elements)))
        }
        return (result, end)
    }
}
