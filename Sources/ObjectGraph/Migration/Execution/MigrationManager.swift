/// Migrates objects from one model version to another through a ``MappingModel``, row by row
/// (Core Data's `NSMigrationManager`): for XML, binary and in-memory stores, and for SQLite when
/// a mapping cannot run as SQL. The caller loads every source object as a ``MigrationObject``
/// and writes back the destination objects ``migrate(_:progress:)`` returns.
///
/// The manager runs Core Data's three phases over the entity mappings, in their order, with one
/// ``EntityMigrationPolicy`` per mapping (``MigrationPolicyRegistry``):
/// 1. create destination objects: each mapping's source objects (its source expression, else
///    every object of exactly its source entity — each entity of a hierarchy has its own
///    mapping), kept when they match its filter predicate, become destination objects whose
///    attributes are the attribute mappings' values converted to the destination type
///    (``MigrationValueConversion``); unmapped attributes take their defaults. Add and remove
///    mappings create nothing. Then every destination object gets its key: the source's key
///    when its entity keeps its table (same hierarchy root, or one renamed from it) and the key
///    is free there, else the next key after the largest in its table.
/// 2. create relationships: the relationship mappings' values (destination objects; source
///    objects stand for the destination objects made from them, as in an inferred
///    `$source.rel`); to-many keep the order the expression yields. Inverses left empty are
///    then filled.
/// 3. validate: required attributes and relationships, uniqueness constraints; then each
///    policy's custom validation and end.
///
/// Expressions see `$source`, `$destination`, `$manager`, `$entityMapping` and `$entityPolicy`;
/// `$manager` answers `destinationInstancesForEntityMappingNamed:sourceInstances:`,
/// `sourceInstancesForEntityMappingNamed:destinationInstances:`,
/// `destinationInstancesForSourceRelationshipNamed:sourceInstances:` and
/// `fetchRequestForSourceEntityNamed:predicateString:`; a source expression
/// `FETCH(request, context, distinct)` yields its request's objects.
///
/// ```swift
/// let manager = MigrationManager(mapping: mapping)
/// let migrated = try manager.migrate(sourceObjects) { print($0.fractionCompleted) }
/// ```
public final class MigrationManager {
    /// The mapping being run.
    public let mapping: MappingModel
    /// Where policy classes are found.
    public let policies: MigrationPolicyRegistry
    /// This migration's stage in a chain (progress reports carry it), counted from 0.
    public let stageIndex: Int
    /// How many stages the chain has.
    public let stageCount: Int
    /// The stage's label in progress reports.
    public let stageLabel: String
    /// The entity mapping being run (`nil` before and after the phases).
    public internal(set) var currentEntityMapping: EntityMapping?
    /// Every source object given to ``migrate(_:progress:)``.
    public internal(set) var sourceObjects: [MigrationObject] = []
    /// Every destination object made so far, in the order made.
    public internal(set) var destinationObjects: [MigrationObject] = []

    /// Source objects by entity name, in the order given.
    var sourcesByEntity: [String: [MigrationObject]] = [:]
    /// The identities of source and destination objects.
    var sourceIdentities: Set<ObjectIdentifier> = []
    var destinationIdentities: Set<ObjectIdentifier> = []
    /// Source ↔ destination associations per entity mapping name.
    var associations: [String: MigrationAssociations] = [:]
    /// The destination objects made from each source object, over every mapping.
    var destinationsBySource: [ObjectIdentifier: [MigrationObject]] = [:]
    /// The policies, by entity mapping name.
    var policyByMapping: [String: EntityMigrationPolicy] = [:]
    /// What is being evaluated (for `destinationInstancesForSourceRelationshipNamed:`).
    var evaluating: (mapping: EntityMapping, property: String?)?
    /// Entity names with their subentities' names, per model, cached.
    var hierarchy = MigrationHierarchy()
    /// Destination entities' properties, cached.
    var destinationEntities: [String: MigrationEntityInfo] = [:]
    /// The first source object each destination object was made from, by any mapping.
    var originByDestination: [ObjectIdentifier: MigrationObject] = [:]

    /// Creates a manager for `mapping`; `stageIndex`, `stageCount` and `stageLabel` place its
    /// progress in a chain of migrations (default: a chain of one, labelled
    /// `source → destination`).
    public init(
        mapping: MappingModel, policies: MigrationPolicyRegistry = .shared, stageIndex: Int = 0,
        stageCount: Int = 1, stageLabel: String? = nil
    ) {
        self.mapping = mapping
        self.policies = policies
        self.stageIndex = stageIndex
        self.stageCount = max(stageCount, 1)
        self.stageLabel =
            stageLabel
            ?? "\(mapping.sourceVersionName ?? "source") → \(mapping.destinationVersionName ?? "destination")"
    }

    /// Migrates `sources` (every object of the store, read with the mapping's source model) and
    /// returns the destination objects, keys given, relationships set, validated. A manager runs
    /// one migration; make a new one for the next.
    /// - Parameters:
    ///   - sources: every object of the store, read with the mapping's source model.
    ///   - progress: called as the phases advance (fraction over the whole chain).
    /// - Throws: ``MigrationError``: `unknownMigrationPolicy`, `expressionFailed`,
    ///   `cannotConvertValue`, `missingRequiredValues`, `uniquenessViolated`, or `stageFailed`
    ///   when a policy throws another error.
    public func migrate(
        _ sources: [MigrationObject], progress: ((MigrationProgress) -> Void)? = nil
    ) throws(MigrationError) -> [MigrationObject] {
        try prepare(sources)
        var reporter = MigrationProgressReporter(manager: self, callback: progress)
        reporter.weights = mapping.entityMappings.map { entityMapping in
            runsOnSources(entityMapping)
                ? entityMapping.sourceEntityName.flatMap { sourcesByEntity[$0]?.count } ?? 0 : 0
        }
        try createDestinationObjects(&reporter)
        MigrationKeys(manager: self).assign()
        try createRelationships(&reporter)
        try validate(&reporter)
        currentEntityMapping = nil
        reporter.finish()
        return destinationObjects
    }

    private func prepare(_ sources: [MigrationObject]) throws(MigrationError) {
        sourceObjects = sources
        for object in sources {
            sourcesByEntity[object.entityName, default: []].append(object)
            sourceIdentities.insert(ObjectIdentifier(object))
        }
        for entityMapping in mapping.entityMappings {
            try checkEntities(of: entityMapping)
            policyByMapping[entityMapping.name] = try policies.makePolicy(for: entityMapping)
            associations[entityMapping.name] = MigrationAssociations()
        }
    }

    /// The mapping's entities exist in their models (and the destination is not abstract).
    private func checkEntities(of entityMapping: EntityMapping) throws(MigrationError) {
        if entityMapping.kind != .add, let name = entityMapping.sourceEntityName,
            mapping.sourceModel.entity(named: name) == nil
        {
            throw .expressionFailed(
                mapping: entityMapping.name, property: nil,
                reason: "the source model has no entity \(name)")
        }
        if entityMapping.kind != .remove, let name = entityMapping.destinationEntityName {
            guard let entity = mapping.destinationModel.entity(named: name) else {
                throw .expressionFailed(
                    mapping: entityMapping.name, property: nil,
                    reason: "the destination model has no entity \(name)")
            }
            if entity.isAbstract && runsOnSources(entityMapping) {
                throw .expressionFailed(
                    mapping: entityMapping.name, property: nil,
                    reason: "the destination entity \(name) is abstract")
            }
        }
    }

    /// Whether the mapping reads source objects (add and remove mappings do not).
    func runsOnSources(_ entityMapping: EntityMapping) -> Bool {
        entityMapping.kind != .add && entityMapping.kind != .remove
    }

    // MARK: Phases

    private func createDestinationObjects(_ reporter: inout MigrationProgressReporter)
        throws(MigrationError)
    {
        for (index, entityMapping) in mapping.entityMappings.enumerated() {
            currentEntityMapping = entityMapping
            let policy = policy(for: entityMapping)
            try hook(entityMapping) { try policy.begin(entityMapping, manager: self) }
            let sources = try sourceObjects(for: entityMapping)
            reporter.begin(phase: 0, mapping: index, count: sources.count)
            for (position, source) in sources.enumerated() {
                try hook(entityMapping) {
                    try policy.createDestinationInstances(
                        forSource: source, in: entityMapping, manager: self)
                }
                reporter.advance(position + 1)
            }
            try hook(entityMapping) {
                try policy.endInstanceCreation(forMapping: entityMapping, manager: self)
            }
        }
    }

    private func createRelationships(_ reporter: inout MigrationProgressReporter)
        throws(MigrationError)
    {
        for (index, entityMapping) in mapping.entityMappings.enumerated() {
            currentEntityMapping = entityMapping
            let policy = policy(for: entityMapping)
            let destinations = associations[entityMapping.name]?.destinations ?? []
            reporter.begin(phase: 1, mapping: index, count: destinations.count)
            for (position, destination) in destinations.enumerated() {
                try hook(entityMapping) {
                    try policy.createRelationships(
                        forDestination: destination, in: entityMapping, manager: self)
                }
                reporter.advance(position + 1)
            }
            try hook(entityMapping) {
                try policy.endRelationshipCreation(forMapping: entityMapping, manager: self)
            }
        }
        currentEntityMapping = nil
        MigrationRelationships(manager: self).completeInverses()
    }

    private func validate(_ reporter: inout MigrationProgressReporter) throws(MigrationError) {
        reporter.begin(phase: 2, mapping: 0, count: destinationObjects.count)
        try MigrationValidation(manager: self).validate()
        for entityMapping in mapping.entityMappings {
            currentEntityMapping = entityMapping
            let policy = policy(for: entityMapping)
            try hook(entityMapping) {
                try policy.performCustomValidation(forMapping: entityMapping, manager: self)
            }
            try hook(entityMapping) { try policy.end(entityMapping, manager: self) }
        }
    }

    /// The source objects `entityMapping` runs on: its source expression's (or its source
    /// entity's objects), kept when they match its filter predicate.
    private func sourceObjects(for entityMapping: EntityMapping) throws(MigrationError)
        -> [MigrationObject]
    {
        guard runsOnSources(entityMapping) else { return [] }
        var sources: [MigrationObject]
        if let expression = entityMapping.sourceExpression {
            sources = try objects(
                evaluate(Self.unwrappingFetch(expression), source: nil, in: entityMapping),
                mapping: entityMapping, property: nil)
        } else {
            sources = entityMapping.sourceEntityName.flatMap { sourcesByEntity[$0] } ?? []
        }
        if let filter = entityMapping.filterPredicate {
            var kept: [MigrationObject] = []
            for source in sources where try matches(filter, source, in: entityMapping) {
                kept.append(source)
            }
            sources = kept
        }
        return sources
    }

    /// `FETCH(request, context, distinct)` is its request (the request yields the objects).
    static func unwrappingFetch(_ expression: Expression) -> Expression {
        if case .function(let name, let arguments) = expression,
            name.uppercased().hasPrefix("FETCH"), let request = arguments.first
        {
            return request
        }
        return expression
    }

    /// The policy made for `entityMapping` at the start (made now, for an expression evaluated
    /// outside ``migrate(_:progress:)``; the default policy when its class is unknown).
    func policy(for entityMapping: EntityMapping) -> EntityMigrationPolicy {
        if let policy = policyByMapping[entityMapping.name] { return policy }
        let policy = (try? policies.makePolicy(for: entityMapping)) ?? EntityMigrationPolicy()
        policyByMapping[entityMapping.name] = policy
        return policy
    }

    /// Runs a policy hook: a ``MigrationError`` passes through, any other error becomes
    /// ``MigrationError/stageFailed(stage:reason:)`` naming the mapping.
    func hook(_ entityMapping: EntityMapping, _ body: () throws -> Void) throws(MigrationError) {
        do {
            try body()
        } catch let error as MigrationError {
            throw error
        } catch {
            throw .stageFailed(stage: "entity mapping \(entityMapping.name)", reason: "\(error)")
        }
    }
}
