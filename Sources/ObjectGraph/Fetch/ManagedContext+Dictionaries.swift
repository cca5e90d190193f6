import Foundation

/// Dictionary results: chosen columns, grouping, aggregates and a having-predicate.
extension ManagedContext {
    /// The matching saved rows as dictionaries of the request's
    /// ``FetchRequest/propertiesToFetch`` (every attribute when `nil`), grouped by
    /// ``FetchRequest/propertiesToGroupBy`` with aggregates per group, filtered by
    /// ``FetchRequest/havingPredicate``.
    ///
    /// A grouped or aggregate fetch is answered by the store where it can: a SQLite store runs
    /// one `SELECT … GROUP BY … HAVING … ORDER BY … LIMIT` (see the SQLite store's aggregate
    /// compiler for what translates); otherwise, and for the other stores, the rows are
    /// grouped and aggregated in memory, with the same answer. Groups come in the order of
    /// their first row; when every sort descriptor names a column (a group key or an
    /// aggregate's name) the result rows are sorted by those columns, otherwise the sort
    /// descriptors order the rows before they are grouped. Sums of integers are integers (of
    /// nothing, 0), averages doubles (of nothing, nil), `min`/`max` the values themselves.
    ///
    /// As in Core Data, dictionary results reflect the persistent store only: this context's
    /// unsaved inserts, edits and deletions are not in them, whatever
    /// ``FetchRequest/includesPendingChanges`` says, and no object is registered. Save first to
    /// see them. So for a child context: its parents' unsaved changes are not in them either.
    ///
    /// Columns are attributes and to-one relationships by key path (a to-one relationship's
    /// value is the related object's ID), expressions (`.objectID()` is the row's own ID,
    /// Core Data's evaluated-object expression) and aggregates (``FetchProperty/aggregate(_:of:as:)``,
    /// or an expression calling `count:`, `sum:`, `min:`, `max:` or `average:`). The
    /// having-predicate names columns by name, as a variable (`$mean`) or a key (`mean`).
    ///
    /// ```swift
    /// var request = FetchRequest(entityName: "Student")
    /// request.propertiesToFetch = [.key("year"), .aggregate(.average, of: "grade", as: "mean")]
    /// request.propertiesToGroupBy = ["year"]
    /// request.havingPredicate = try Predicate(format: "$mean > 3")
    /// let rows = try context.fetchDictionaries(request)   // [["year": 1, "mean": 3.4], …]
    /// ```
    /// - Throws: ``ObjectGraphError/wrongPropertyKind(entity:property:expected:)`` for a
    ///   to-many relationship among the columns or group keys,
    ///   ``ObjectGraphError/unknownProperty(entity:property:)`` for an unknown key, and what
    ///   evaluating the predicates throws.
    public func fetchDictionaries<T: ManagedObject>(_ request: FetchRequest<T>) throws
        -> [[String: Value]]
    {
        try dictionaries(request, askingStore: true)
    }

    /// ``fetchDictionaries(_:)`` answered by the in-memory evaluator alone, never by the
    /// store: the reference a store's answer must equal (the differential tests compare them).
    func evaluatedDictionaries<T: ManagedObject>(_ request: FetchRequest<T>) throws
        -> [[String: Value]]
    {
        try dictionaries(request, askingStore: false)
    }

    private func dictionaries<T: ManagedObject>(_ request: FetchRequest<T>, askingStore: Bool)
        throws -> [[String: Value]]
    {
        let entity = try fetchEntity(request)
        let columns = try fetchedColumns(request, entity: entity)
        let hasAggregates = try columns.contains { try aggregateForm(of: $0) != nil }
        let sortsResults = try sortsResultRows(request, columns: columns)
        if askingStore,
            let query = try storeAggregateQuery(request, entity: entity, columns: columns),
            let answered = try coordinator.aggregate(query, in: readingGeneration())
        {
            return answered
        }
        let objects = try storedRows(request, entity: entity, sorted: !sortsResults)
        var rows: [[String: Value]]
        if let groupKeys = request.propertiesToGroupBy, !groupKeys.isEmpty {
            rows = try grouped(objects, by: groupKeys, columns: columns)
        } else if hasAggregates {
            for column in columns where try aggregateForm(of: column) == nil {
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
            // Core Data names a fetched column in a having-predicate as a variable
            // (`$count > 1`); a plain key (`count > 1`) reads the same column.
            rows = try rows.filter { row in
                let named = Self.nested(row)
                return try having.evaluate(with: named, variables: named)
            }
        }
        if sortsResults, !request.sortDescriptors.isEmpty {
            rows = Self.sorted(rows, by: request.sortDescriptors)
        }
        if request.returnsDistinctResults {
            var seen = Set<[String: Value]>()
            rows = rows.filter { seen.insert($0).inserted }
        }
        return Self.limit(rows, offset: request.fetchOffset, limit: request.fetchLimit)
    }

    /// The saved rows matching `request`, in order: what its store answers (in SQL for a
    /// SQLite store), or every saved row of the family filtered and sorted in memory. Pending
    /// changes, inserts and deletions of this context are not seen, and no object is
    /// registered.
    private func storedRows<T: ManagedObject>(
        _ request: FetchRequest<T>, entity: EntitySchema, sorted: Bool
    ) throws -> [StoredRowView] {
        // The stores' rows, for a child context too: as in Core Data, dictionary results reflect
        // the persistent store, not the unsaved changes of this context or its parents.
        let graph = try storedRowGraph()
        var query = storeQuery(request, entity: entity, result: .rows, limits: false)
        if !sorted { query.sortDescriptors = [] }
        query.needsKeyOrder = true  // grouped, offset and limited here, in the stores' order
        if let answered = try coordinator.rows(answering: query, in: graph.generation) {
            return answered.map { graph.view(of: $0) }
        }
        return try matchingStoredRows(query, graph: graph)
    }

    /// The columns of a dictionary fetch of `entity`: ``FetchRequest/propertiesToFetch``, or
    /// every stored attribute; their key paths and the group keys checked.
    func fetchedColumns<T: ManagedObject>(_ request: FetchRequest<T>, entity: EntitySchema)
        throws -> [FetchProperty]
    {
        let columns =
            request.propertiesToFetch
            ?? entity.attributePositions.compactMap { position in
                entity.properties[position].isTransient
                    ? nil : FetchProperty.key(entity.properties[position].name)
            }
        for column in columns {
            if case .key(let key) = column { try checkFetchedKeyPath(key, from: entity) }
        }
        for key in request.propertiesToGroupBy ?? [] {
            try checkFetchedKeyPath(key, from: entity)
        }
        return columns
    }

    /// Whether a grouped or aggregate fetch sorts its result rows by their columns: when
    /// every sort key names a column (a group key or an aggregate's name). Otherwise the sort
    /// descriptors order the rows before grouping.
    private func sortsResultRows<T: ManagedObject>(
        _ request: FetchRequest<T>, columns: [FetchProperty]
    ) throws -> Bool {
        let grouped = !(request.propertiesToGroupBy ?? []).isEmpty
        guard try grouped || columns.contains(where: { try aggregateForm(of: $0) != nil })
        else { return false }
        return request.sortDescriptors.allSatisfy { descriptor in
            columns.contains { $0.name == descriptor.key }
        }
    }

    /// The grouped or aggregate fetch `request` as the store is asked it, or `nil` when it is
    /// evaluated in memory from the start: no grouping or aggregate, sort keys that name no
    /// column, or columns that do not fit grouping (the in-memory path then throws the error
    /// that says why).
    func storeAggregateQuery<T: ManagedObject>(
        _ request: FetchRequest<T>, entity: EntitySchema, columns: [FetchProperty]
    ) throws -> StoreAggregateQuery? {
        guard try sortsResultRows(request, columns: columns) else { return nil }
        let groupKeys = request.propertiesToGroupBy ?? []
        var named: [StoreAggregateQuery.NamedColumn] = []
        for column in columns {
            if let (function, expression) = try aggregateForm(of: column) {
                let stored: StoreAggregateQuery.Function =
                    switch function {
                    case .count: .count
                    case .sum: .sum
                    case .min: .min
                    case .max: .max
                    case .average: .average
                    }
                named.append(.init(name: column.name, column: .aggregate(stored, expression)))
            } else if groupKeys.contains(column.name) {
                named.append(.init(name: column.name, column: .groupValue(column.name)))
            } else {
                return nil
            }
        }
        return StoreAggregateQuery(
            rows: storeQuery(request, entity: entity, result: .rows, limits: false),
            columns: named, groupKeys: groupKeys, having: request.havingPredicate,
            sortDescriptors: request.sortDescriptors, distinct: request.returnsDistinctResults,
            offset: request.fetchOffset, limit: request.fetchLimit)
    }

    /// Result rows sorted stably by descriptors whose keys name their columns.
    private static func sorted(_ rows: [[String: Value]], by descriptors: [SortDescriptor])
        -> [[String: Value]]
    {
        let keyed = rows.enumerated().map { index, row in
            (index: index, row: row, keys: descriptors.map { row[$0.key] ?? .null })
        }
        return keyed.sorted { lhs, rhs in
            SortDescriptor.precedes(lhs.keys, rhs.keys, by: descriptors) ?? (lhs.index < rhs.index)
        }.map(\.row)
    }

    /// A result row as the having-predicate reads it: a column named by a key path
    /// (`team.name`) nested as that path, so `team.name == 'Red'` and `$team.name` find it.
    /// (Should a column be named as another's prefix, `team` and `team.name`, the longer
    /// path wins, whatever the order of the dictionary.)
    private static func nested(_ row: [String: Value]) -> [String: EvaluationValue] {
        var result: [String: EvaluationValue] = [:]
        let longestFirst = row.sorted {
            $0.key.count > $1.key.count || ($0.key.count == $1.key.count && $0.key < $1.key)
        }
        for (name, value) in longestFirst {
            let path = name.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
            insert(.value(value), at: path[...], into: &result)
        }
        return result
    }

    private static func insert(
        _ value: EvaluationValue, at path: ArraySlice<String>,
        into dictionary: inout [String: EvaluationValue]
    ) {
        guard let first = path.first else { return }
        guard path.count > 1 else {
            if dictionary[first] == nil { dictionary[first] = value }
            return
        }
        var inner: [String: EvaluationValue] = [:]
        if case .dictionary(let existing)? = dictionary[first] { inner = existing }
        insert(value, at: path.dropFirst(), into: &inner)
        dictionary[first] = .dictionary(inner)
    }

    /// Checks a key path of ``FetchRequest/propertiesToFetch`` or
    /// ``FetchRequest/propertiesToGroupBy``: attributes and to-one relationships (through
    /// to-one relationships) only, as Core Data.
    /// - Throws: ``ObjectGraphError/wrongPropertyKind(entity:property:expected:)`` naming a
    ///   to-many relationship, ``ObjectGraphError/unknownProperty(entity:property:)`` an unknown
    ///   key.
    private func checkFetchedKeyPath(_ key: String, from entity: EntitySchema) throws {
        var current = entity
        let components = key.split(separator: ".", omittingEmptySubsequences: false)
        for (index, component) in components.enumerated() {
            let name = String(component)
            if name.hasPrefix("@") { return }  // a collection operator: evaluated as written
            let position = try current.position(of: name)
            guard case .relationship(let relationship) = current.properties[position] else {
                if index < components.count - 1 {
                    throw ObjectGraphError.wrongPropertyKind(
                        entity: current.name, property: name,
                        expected: "a to-one relationship (the key path '\(key)' goes on)")
                }
                return
            }
            if relationship.isToMany {
                throw ObjectGraphError.wrongPropertyKind(
                    entity: current.name, property: name,
                    expected:
                        "an attribute or a to-one relationship (a fetch of dictionaries "
                        + "takes no to-many relationship, in '\(key)')")
            }
            guard let destination = relationship.destinationIndex else { return }
            current = schema.entities[destination]
        }
    }

    /// The expression functions a dictionary column aggregates with, by selector.
    private static let aggregateSelectors: [String: AggregateFunction] = [
        "count:": .count, "sum:": .sum, "min:": .min, "max:": .max, "average:": .average,
    ]

    /// The aggregate a column computes and the expression it aggregates: an
    /// ``FetchProperty/aggregate(_:of:as:)`` column, or an expression column calling `count:`,
    /// `sum:`, `min:`, `max:` or `average:` (Core Data's expression description of an
    /// aggregate); `nil` for a column of one value per row.
    private func aggregateForm(of column: FetchProperty) throws -> (AggregateFunction, Expression)?
    {
        switch column {
        case .aggregate(let function, let key, _):
            return (function, try keyPathExpression(key))
        case .expression(.function(let selector, let arguments), _) where arguments.count == 1:
            return Self.aggregateSelectors[selector.lowercased()].map { ($0, arguments[0]) }
        case .key, .expression:
            return nil
        }
    }

    private func grouped(
        _ objects: [StoredRowView], by keys: [String], columns: [FetchProperty]
    ) throws -> [[String: Value]] {
        for column in columns {
            if case .key(let key) = column, !keys.contains(key) {
                throw ObjectGraphError.unsupported(
                    "the column '\(key)' must be in propertiesToGroupBy or be an aggregate")
            }
        }
        let expressions = try keys.map { try keyPathExpression($0) }
        var order: [[Value]] = []
        var groups: [[Value]: [StoredRowView]] = [:]
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
        _ objects: [StoredRowView], columns: [FetchProperty], groupValues: [String: Value]
    ) throws -> [String: Value] {
        var row: [String: Value] = [:]
        for column in columns {
            if let (function, expression) = try aggregateForm(of: column) {
                let values = try objects.map { try scalar(expression.evaluate(with: $0)) }
                row[column.name] = Self.aggregate(function, values.filter { $0 != .null })
            } else if let grouped = groupValues[column.name] {
                row[column.name] = grouped
            } else if case .key = column {
                row[column.name] = .null
            } else {
                throw ObjectGraphError.unsupported(
                    "the expression column '\(column.name)' cannot be used with grouping or "
                        + "aggregates unless it is an aggregate (count:, sum:, min:, max:, "
                        + "average:) or named in propertiesToGroupBy")
            }
        }
        return row
    }

    private func value(of column: FetchProperty, for object: StoredRowView) throws -> Value {
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
