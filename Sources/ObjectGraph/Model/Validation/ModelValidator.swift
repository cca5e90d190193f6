extension EntityModel {
    /// Checks the model and returns every finding at once: the loader's ``loadDiagnostics``
    /// first, then the validation rules, in file order.
    ///
    /// Each ``Diagnostic`` carries a severity, a stable rule id, a message, the location of the
    /// element concerned (for loaded models) and the entity and property names. A model whose
    /// diagnostics contain no error is one Core Data accepts; warnings flag values Core Data reads
    /// leniently or ignores, and shapes that are probably mistakes.
    ///
    /// ```swift
    /// let model = try EntityModel(contentsOf: URL(fileURLWithPath: "School.xcdatamodeld"))
    /// for diagnostic in model.validate() { print(diagnostic) }
    /// // School.xcdatamodeld/School.xcdatamodel/contents:12:9: warning: … [missing-inverse]
    /// ```
    ///
    /// The rules (see `Docs/ValidationRules.md` for what each checks and why):
    ///
    /// | Rule id | Severity |
    /// |---|---|
    /// | `duplicate-entity` | error |
    /// | `invalid-name` | error |
    /// | `entity-name-case` | warning |
    /// | `unknown-parent-entity` | error |
    /// | `inheritance-cycle` | error |
    /// | `duplicate-property` | error |
    /// | `redeclared-property` | error |
    /// | `property-name-case` | warning |
    /// | `reserved-name` | error |
    /// | `shadowing-name` | warning |
    /// | `unknown-destination-entity` | error |
    /// | `missing-inverse` | warning |
    /// | `unknown-inverse` | error |
    /// | `asymmetric-inverse` | warning |
    /// | `inverse-entity-mismatch` | error |
    /// | `invalid-count` | warning |
    /// | `min-count-greater-than-max-count` | error |
    /// | `ordered-to-one` | warning |
    /// | `to-one-max-count` | warning |
    /// | `unknown-delete-rule` | warning |
    /// | `unknown-attribute-type` | error |
    /// | `missing-attribute-type` | error |
    /// | `unknown-composite` | error |
    /// | `lenient-default-value` | warning |
    /// | `ignored-default-value` | warning |
    /// | `default-value-out-of-range` | error |
    /// | `default-outside-min-max` | warning |
    /// | `invalid-min-max` | warning |
    /// | `min-greater-than-max` | error |
    /// | `invalid-regular-expression` | error |
    /// | `missing-derivation-expression` | error |
    /// | `invalid-derivation-expression` | error |
    /// | `unknown-constraint-property` | error |
    /// | `invalid-constraint-property` | error |
    /// | `unknown-index-property` | error |
    /// | `invalid-index-property` | warning |
    /// | `empty-index` | warning |
    /// | `duplicate-fetch-template` | error |
    /// | `unknown-fetch-entity` | error |
    /// | `invalid-predicate` | error |
    /// | `duplicate-configuration` | error |
    /// | `unknown-configuration-entity` | error |
    /// | `duplicate-configuration-entity` | warning |
    ///
    /// - Returns: All diagnostics; empty for a clean model.
    public func validate() -> [Diagnostic] {
        var validator = ModelValidator(model: self)
        validator.run()
        // A finding the loader already made (same rule, same place) is not repeated.
        let loaded = Set(loadDiagnostics.map(ModelValidator.Finding.init))
        let fromRules = validator.sortedDiagnostics.filter {
            !loaded.contains(ModelValidator.Finding($0))
        }
        return loadDiagnostics + fromRules
    }
}

/// Runs every validation rule over one model and collects the diagnostics.
///
/// The rule families live in `ModelValidator+<Family>.swift`; each adds diagnostics with
/// ``report(_:_:at:entity:property:)``.
struct ModelValidator {
    /// The model being checked.
    let model: EntityModel
    /// The findings so far, in the order the rules made them.
    private(set) var diagnostics: [Diagnostic] = []

    /// The loader's findings by rule id and place, for ``loaderReported(_:at:)``.
    private let loaderMarks: Set<LoaderMark>

    private struct LoaderMark: Hashable {
        let ruleID: String
        let location: SourceLocation
    }

    /// For each property name, the names of the entities declaring it.
    let propertyOwners: [String: Set<String>]
    /// The inheritance links, for lineage questions in constant time.
    let graph: InheritanceGraph
    /// For each property name, the entities of ``graph`` declaring it.
    let declaringNodes: [String: [Int]]
    /// The entity names declared more than once.
    let repeatedEntityNames: Set<String>

    init(model: EntityModel) {
        self.model = model
        var owners: [String: Set<String>] = [:]
        var seen: Set<String> = []
        var repeated: Set<String> = []
        for entity in model.entities {
            if !seen.insert(entity.name).inserted { repeated.insert(entity.name) }
            for property in DeclaredProperty.declared(in: entity) {
                owners[property.name, default: []].insert(entity.name)
            }
        }
        propertyOwners = owners
        repeatedEntityNames = repeated
        graph = InheritanceGraph(model.entities)
        var declaring: [String: [Int]] = [:]
        for (index, entity) in graph.nodes.enumerated() {
            for name in Set(DeclaredProperty.declared(in: entity).map(\.name)) {
                declaring[name, default: []].append(index)
            }
        }
        declaringNodes = declaring
        loaderMarks = Set(
            model.loadDiagnostics.compactMap { diagnostic in
                diagnostic.location.map { LoaderMark(ruleID: diagnostic.ruleID, location: $0) }
            })
    }

    /// Runs all rule families.
    mutating func run() {
        checkEntityNames()
        checkInheritance()
        for entity in model.entities {
            checkPropertyNames(of: entity)
            for relationship in entity.relationships {
                checkRelationship(relationship, of: entity)
            }
            for attribute in entity.attributes {
                checkAttribute(attribute, of: entity)
            }
            checkFetchedProperties(of: entity)
            checkConstraintsAndIndexes(of: entity)
        }
        checkComposites()
        checkFetchTemplates()
        checkConfigurations()
    }

    /// Records one finding of `rule`.
    mutating func report(
        _ rule: ValidationRule, _ message: String, at location: SourceLocation?,
        entity: String? = nil, property: String? = nil
    ) {
        diagnostics.append(
            Diagnostic(
                rule.severity, rule.id, message, location: location, entity: entity,
                property: property))
    }

    /// What makes two diagnostics the same finding: rule, place, entity and property.
    struct Finding: Hashable {
        let ruleID: String
        let location: SourceLocation?
        let entity: String?
        let property: String?

        init(_ diagnostic: Diagnostic) {
            ruleID = diagnostic.ruleID
            location = diagnostic.location
            entity = diagnostic.entity
            property = diagnostic.property
        }
    }

    /// Whether the loader reported `ruleID` for the element at `location` (a missing name or
    /// destination), so the rules do not report the same gap again under another id.
    func loaderReported(_ ruleID: String, at location: SourceLocation?) -> Bool {
        guard let location else { return false }
        return loaderMarks.contains(LoaderMark(ruleID: ruleID, location: location))
    }

    /// The diagnostics ordered by file position; those without a location keep rule order and
    /// come after located ones of the same file.
    var sortedDiagnostics: [Diagnostic] {
        diagnostics.enumerated().sorted { lhs, rhs in
            let left = lhs.element.location
            let right = rhs.element.location
            let leftKey = (left?.line ?? Int.max, left?.column ?? Int.max, lhs.offset)
            let rightKey = (right?.line ?? Int.max, right?.column ?? Int.max, rhs.offset)
            return leftKey < rightKey
        }.map(\.element)
    }
}
