/// Customizes how one entity mapping runs (Core Data's `NSEntityMigrationPolicy`). The
/// ``MigrationManager`` makes one policy per entity mapping and calls its hooks in Core Data's
/// three phases: ``begin(_:manager:)``, ``createDestinationInstances(forSource:in:manager:)``
/// for every source object, ``endInstanceCreation(forMapping:manager:)``; then
/// ``createRelationships(forDestination:in:manager:)`` for every destination object and
/// ``endRelationshipCreation(forMapping:manager:)``; then
/// ``performCustomValidation(forMapping:manager:)`` and ``end(_:manager:)``.
///
/// Subclass it, override the hooks you need (call `super` to keep the default behaviour), and
/// register the subclass under the class name the mapping model names. Expressions reach the
/// policy as `$entityPolicy`; `FUNCTION($entityPolicy, "selector:", …)` calls
/// ``callFunction(_:arguments:)``.
///
/// ```swift
/// final class SplitNamePolicy: EntityMigrationPolicy {
///     override func createDestinationInstances(
///         forSource source: MigrationObject, in mapping: EntityMapping, manager: MigrationManager
///     ) throws {
///         let parts = source.attribute("name").description.split(separator: " ")
///         let person = try manager.insertDestinationObject(entityName: "Person")
///         person["first"] = .attribute(.string(parts.first.map(String.init) ?? ""))
///         manager.associate(source: source, destination: person, mapping: mapping)
///     }
/// }
/// MigrationPolicyRegistry.shared.register(SplitNamePolicy.self, as: "SplitNamePolicy")
/// ```
open class EntityMigrationPolicy: FunctionCallable {
    /// Creates a policy (the manager makes one per entity mapping).
    public required init() {}

    /// Before any object of `mapping` is created. Does nothing by default.
    open func begin(_ mapping: EntityMapping, manager: MigrationManager) throws {}

    /// Creates the destination object(s) for `source` and associates them with it. By default:
    /// one object of the mapping's destination entity, its attributes set from the mapping's
    /// attribute mappings (unmapped attributes keep their defaults), associated with `source`.
    open func createDestinationInstances(
        forSource source: MigrationObject, in mapping: EntityMapping, manager: MigrationManager
    ) throws {
        try manager.createDefaultDestinationInstance(forSource: source, in: mapping)
    }

    /// After every destination object of `mapping` is created. Does nothing by default.
    open func endInstanceCreation(forMapping mapping: EntityMapping, manager: MigrationManager)
        throws
    {}

    /// Sets the relationships of `destination`. By default: each relationship mapping's value
    /// expression, evaluated with `$source` the object `destination` was made from.
    open func createRelationships(
        forDestination destination: MigrationObject, in mapping: EntityMapping,
        manager: MigrationManager
    ) throws {
        try manager.createDefaultRelationships(forDestination: destination, in: mapping)
    }

    /// After every relationship of `mapping`'s objects is set. Does nothing by default.
    open func endRelationshipCreation(
        forMapping mapping: EntityMapping, manager: MigrationManager
    ) throws {}

    /// After the manager validated `mapping`'s destination objects. Does nothing by default.
    open func performCustomValidation(
        forMapping mapping: EntityMapping, manager: MigrationManager
    ) throws {}

    /// Last call for `mapping`. Does nothing by default.
    open func end(_ mapping: EntityMapping, manager: MigrationManager) throws {}

    /// `$entityPolicy.key` in an expression. Throws by default (the policy has no keys).
    open func predicateValue(forKey key: String) throws -> EvaluationValue {
        throw PredicateEvaluationError.unknownKey(key, in: "\(type(of: self))")
    }

    /// `FUNCTION($entityPolicy, "selector:", arguments…)` in a mapping's expression: override
    /// to answer the selectors your mapping model calls. Throws by default.
    open func callFunction(_ selector: String, arguments: [EvaluationValue]) throws
        -> EvaluationValue
    {
        throw PredicateEvaluationError.unsupported(
            "\(type(of: self)) does not answer FUNCTION($entityPolicy, \"\(selector)\")")
    }
}
