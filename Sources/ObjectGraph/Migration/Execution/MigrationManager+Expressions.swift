extension MigrationManager {
    /// Evaluates a mapping's expression with `$source`, `$destination`, `$manager`,
    /// `$entityMapping` and `$entityPolicy` bound (`SELF` is the source object).
    /// - Throws: ``MigrationError/expressionFailed(mapping:property:reason:)`` naming the
    ///   mapping, property and object, or the ``MigrationError`` a manager call threw.
    public func evaluate(
        _ expression: Expression, source: MigrationObject?, destination: MigrationObject? = nil,
        in entityMapping: EntityMapping, property: String? = nil
    ) throws(MigrationError) -> EvaluationValue {
        let saved = evaluating
        evaluating = (entityMapping, property)
        defer { evaluating = saved }
        do {
            if let source, let key = Self.sourceKey(expression) {
                return try source.predicateValue(forKey: key)  // `$source.name`, the common case
            }
            let object: EvaluationValue = source.map { .object($0) } ?? .null
            return try expression.evaluate(
                with: object,
                variables: variables(source: source, destination: destination, entityMapping))
        } catch let error as MigrationError {
            throw error
        } catch {
            throw .expressionFailed(
                mapping: entityMapping.name, property: property,
                reason: "\(expression)\(source.map { " on \($0.reference)" } ?? ""): \(error)")
        }
    }

    /// Whether `source` matches `predicate` (a filter predicate), with the same variables.
    func matches(
        _ predicate: Predicate, _ source: MigrationObject, in entityMapping: EntityMapping
    ) throws(MigrationError) -> Bool {
        do {
            return try predicate.evaluate(
                with: source, variables: variables(source: source, destination: nil, entityMapping))
        } catch {
            throw .expressionFailed(
                mapping: entityMapping.name, property: nil,
                reason: "filter \(predicate) on \(source.reference): \(error)")
        }
    }

    /// The objects `value` holds (nil: none), each a ``MigrationObject``.
    func objects(_ value: EvaluationValue, mapping entityMapping: EntityMapping, property: String?)
        throws(MigrationError) -> [MigrationObject]
    {
        switch value {
        case .value(.null): return []
        case .object(let object as MigrationObject): return [object]
        case .collection(let items):
            var result: [MigrationObject] = []
            result.reserveCapacity(items.count)
            for item in items {
                result += try objects(item, mapping: entityMapping, property: property)
            }
            return result
        default:
            throw .expressionFailed(
                mapping: entityMapping.name, property: property,
                reason: "expected objects, got \(value)")
        }
    }

    private func variables(
        source: MigrationObject?, destination: MigrationObject?, _ entityMapping: EntityMapping
    ) -> [String: EvaluationValue] {
        [
            "source": source.map { .object($0) } ?? .null,
            "destination": destination.map { .object($0) } ?? .null,
            "manager": .object(self),
            "entityMapping": .object(EntityMappingValue(mapping: entityMapping)),
            "entityPolicy": .object(policy(for: entityMapping)),
        ]
    }

    /// The key of `$source.key`, when the expression is just that.
    private static func sourceKey(_ expression: Expression) -> String? {
        guard case .member(.variable("source"), let path) = expression,
            path.components.count == 1, case .key(let key) = path.components[0]
        else { return nil }
        return key
    }
}

extension MigrationManager: FunctionCallable {
    /// `$manager.sourceContext` and `$manager.destinationContext` (nil here: the manager's
    /// objects stand for both contexts) and `$manager.currentEntityMapping`.
    public func predicateValue(forKey key: String) throws -> EvaluationValue {
        switch key {
        case "sourceContext", "destinationContext", "sourceModel", "destinationModel",
            "mappingModel":
            return .null
        case "currentEntityMapping":
            return currentEntityMapping.map { .object(EntityMappingValue(mapping: $0)) } ?? .null
        default:
            throw PredicateEvaluationError.unknownKey(key, in: "the migration manager")
        }
    }

    /// `FUNCTION($manager, selector, …)`: the manager's methods a mapping model calls.
    public func callFunction(_ selector: String, arguments: [EvaluationValue]) throws
        -> EvaluationValue
    {
        let mappingName = evaluating?.mapping.name ?? currentEntityMapping?.name ?? ""
        func text(_ index: Int) throws -> String {
            guard index < arguments.count, case .value(.string(let text)) = arguments[index]
            else {
                throw PredicateEvaluationError.typeMismatch(
                    "\(selector) needs a string as argument \(index + 1)")
            }
            return text
        }
        func instances(_ index: Int) throws -> [MigrationObject]? {
            guard index < arguments.count else { return nil }
            return try objects(
                arguments[index],
                mapping: evaluating?.mapping ?? EntityMapping(name: mappingName, kind: .custom),
                property: evaluating?.property)
        }
        func knownMapping() throws -> String {
            let name = try text(0)
            guard associations[name] != nil else {
                throw PredicateEvaluationError.unsupported("no entity mapping is named \(name)")
            }
            return name
        }
        let result: [MigrationObject]
        switch selector {
        case "destinationInstancesForEntityMappingNamed:sourceInstances:":
            result = destinationInstances(
                forEntityMappingNamed: try knownMapping(), sourceInstances: try instances(1))
        case "sourceInstancesForEntityMappingNamed:destinationInstances:":
            result = sourceInstances(
                forEntityMappingNamed: try knownMapping(), destinationInstances: try instances(1))
        case "destinationInstancesForSourceRelationshipNamed:sourceInstances:":
            _ = try text(0)
            result = MigrationRelationships(manager: self).destinations(
                for: try instances(1) ?? [], property: evaluating?.property,
                mapping: evaluating?.mapping)
        case "fetchRequestForSourceEntityNamed:predicateString:":
            let entityName = try text(0)
            let predicate = try Predicate(
                format: arguments.count > 1 ? try text(1) : "TRUEPREDICATE")
            var matching: [MigrationObject] = []
            for object in sourceObjects(ofEntity: entityName)
            where try predicate.evaluate(with: object) {
                matching.append(object)
            }
            result = matching
        default:
            throw PredicateEvaluationError.unsupported(
                "the migration manager has no method \(selector)")
        }
        return .collection(result.map { .object($0) })
    }
}

/// `$entityMapping` in an expression: the entity mapping's name, kind, entity names and user
/// info.
struct EntityMappingValue: KeyValueReadable {
    let mapping: EntityMapping

    func predicateValue(forKey key: String) throws -> EvaluationValue {
        switch key {
        case "name": return .value(.string(mapping.name))
        case "sourceEntityName":
            return .value(mapping.sourceEntityName.map { .string($0) } ?? .null)
        case "destinationEntityName":
            return .value(mapping.destinationEntityName.map { .string($0) } ?? .null)
        case "mappingType": return .value(.string(mapping.kind.rawValue))
        case "entityMigrationPolicyClassName":
            return .value(mapping.migrationPolicyClassName.map { .string($0) } ?? .null)
        case "userInfo":
            return .dictionary(mapping.userInfo.mapValues { .value(.string($0)) })
        default:
            throw PredicateEvaluationError.unknownKey(key, in: "entity mapping \(mapping.name)")
        }
    }
}
