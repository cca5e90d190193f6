import Foundation

/// Dictionary results: chosen columns, grouping, aggregates and a having-predicate.
extension ManagedContext {
    /// The matching rows as dictionaries of the request's ``FetchRequest/propertiesToFetch``
    /// (every attribute when `nil`), grouped by ``FetchRequest/propertiesToGroupBy`` with
    /// aggregates per group, filtered by ``FetchRequest/havingPredicate``.
    ///
    /// ```swift
    /// var request = FetchRequest(entityName: "Student")
    /// request.propertiesToFetch = [.key("year"), .aggregate(.average, of: "grade", as: "mean")]
    /// request.propertiesToGroupBy = ["year"]
    /// request.havingPredicate = try Predicate(format: "mean > 3")
    /// let rows = try context.fetchDictionaries(request)   // [["year": 1, "mean": 3.4], …]
    /// ```
    public func fetchDictionaries<T: ManagedObject>(_ request: FetchRequest<T>) throws
        -> [[String: Value]]
    {
        let entity = try fetchEntity(request)
        let objects = try matchingObjects(request, applyingLimits: false)
        let columns =
            request.propertiesToFetch
            ?? entity.attributePositions.compactMap { position in
                entity.properties[position].isTransient
                    ? nil : FetchProperty.key(entity.properties[position].name)
            }
        let hasAggregates = columns.contains {
            if case .aggregate = $0 { return true }
            return false
        }
        var rows: [[String: Value]]
        if let groupKeys = request.propertiesToGroupBy, !groupKeys.isEmpty {
            rows = try grouped(objects, by: groupKeys, columns: columns)
        } else if hasAggregates {
            for column in columns {
                if case .aggregate = column { continue }
                throw ObjectGraphError.unsupported(
                    "the column '\(column.name)' must be an aggregate or listed in "
                        + "propertiesToGroupBy when other columns aggregate")
            }
            rows = [try aggregateRow(objects, columns: columns, groupValues: [:])]
        } else {
            rows = try objects.map { object in
                var row: [String: Value] = [:]
                for column in columns { row[column.name] = try value(of: column, for: object) }
                return row
            }
        }
        if let having = request.havingPredicate {
            rows = try rows.filter { row in
                try having.evaluate(with: row.mapValues { EvaluationValue.value($0) })
            }
        }
        if request.returnsDistinctResults {
            var seen = Set<[String: Value]>()
            rows = rows.filter { seen.insert($0).inserted }
        }
        return Self.limit(rows, offset: request.fetchOffset, limit: request.fetchLimit)
    }

    private func grouped(
        _ objects: [ManagedObject], by keys: [String], columns: [FetchProperty]
    ) throws -> [[String: Value]] {
        for column in columns {
            if case .key(let key) = column, !keys.contains(key) {
                throw ObjectGraphError.unsupported(
                    "the column '\(key)' must be in propertiesToGroupBy or be an aggregate")
            }
        }
        let expressions = try keys.map { try keyPathExpression($0) }
        var order: [[Value]] = []
        var groups: [[Value]: [ManagedObject]] = [:]
        for object in objects {
            let groupValues = try expressions.map { try scalar($0.evaluate(with: object)) }
            if groups[groupValues] == nil { order.append(groupValues) }
            groups[groupValues, default: []].append(object)
        }
        return try order.map { groupValues in
            var named: [String: Value] = [:]
            for (key, value) in zip(keys, groupValues) { named[key] = value }
            return try aggregateRow(groups[groupValues] ?? [], columns: columns, groupValues: named)
        }
    }

    private func aggregateRow(
        _ objects: [ManagedObject], columns: [FetchProperty], groupValues: [String: Value]
    ) throws -> [String: Value] {
        var row: [String: Value] = [:]
        for column in columns {
            switch column {
            case .key(let key):
                row[key] = groupValues[key] ?? .null
            case .aggregate(let function, let key, let name):
                let expression = try keyPathExpression(key)
                let values = try objects.map { try scalar(expression.evaluate(with: $0)) }
                row[name] = Self.aggregate(function, values.filter { $0 != .null })
            case .expression(_, let name):
                throw ObjectGraphError.unsupported(
                    "the expression column '\(name)' cannot be used with grouping or aggregates")
            }
        }
        return row
    }

    private func value(of column: FetchProperty, for object: ManagedObject) throws -> Value {
        switch column {
        case .key(let key): return try scalar(keyPathExpression(key).evaluate(with: object))
        case .expression(let expression, _): return try scalar(expression.evaluate(with: object))
        case .aggregate(_, _, let name):
            throw ObjectGraphError.unsupported("the aggregate '\(name)' needs grouping")
        }
    }

    private func keyPathExpression(_ key: String) throws -> Expression {
        do {
            return try Expression(format: key)
        } catch {
            throw ObjectGraphError.unsupported("'\(key)' is not a key path: \(error)")
        }
    }

    private func scalar(_ value: EvaluationValue) -> Value {
        switch value {
        case .value(let scalar): return scalar
        case .object(let object): return object.predicateObjectID.map { .objectID($0) } ?? .null
        case .collection, .dictionary: return .null
        }
    }

    static func aggregate(_ function: AggregateFunction, _ values: [Value]) -> Value {
        switch function {
        case .count:
            return .integer(Int64(values.count))
        case .sum:
            if values.allSatisfy({ if case .integer = $0 { return true } else { return false } }) {
                var total: Int64 = 0
                for case .integer(let v) in values {
                    let (sum, overflow) = total.addingReportingOverflow(v)
                    if overflow {
                        return .double(values.compactMap { Double(value: $0) }.reduce(0, +))
                    }
                    total = sum
                }
                return .integer(total)
            }
            return .double(values.compactMap { Double(value: $0) }.reduce(0, +))
        case .average:
            let numbers = values.compactMap { Double(value: $0) }
            return numbers.isEmpty ? .null : .double(numbers.reduce(0, +) / Double(numbers.count))
        case .min, .max:
            let order = SortDescriptor("")
            guard var best = values.first else { return .null }
            for value in values.dropFirst() {
                let comparison = order.order(value, best)
                if (function == .min && comparison == .orderedAscending)
                    || (function == .max && comparison == .orderedDescending)
                {
                    best = value
                }
            }
            return best
        }
    }
}
