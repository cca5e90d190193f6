/// One validation rule: its stable identifier and the severity of what it reports.
///
/// The catalog below is the single source of rule ids; `Docs/ValidationRules.md` explains each
/// (a test checks that every documented rule fires with its documented severity).
struct ValidationRule: Sendable, Hashable {
    /// The stable identifier printed in brackets (`duplicate-entity`).
    let id: String
    /// The severity of every diagnostic the rule makes.
    let severity: Diagnostic.Severity

    private init(_ id: String, _ severity: Diagnostic.Severity) {
        self.id = id
        self.severity = severity
    }

    // MARK: Entities

    static let duplicateEntity = ValidationRule("duplicate-entity", .error)
    static let invalidName = ValidationRule("invalid-name", .error)
    static let entityNameCase = ValidationRule("entity-name-case", .warning)
    static let unknownParentEntity = ValidationRule("unknown-parent-entity", .error)
    static let inheritanceCycle = ValidationRule("inheritance-cycle", .error)

    // MARK: Property names

    static let duplicateProperty = ValidationRule("duplicate-property", .error)
    static let redeclaredProperty = ValidationRule("redeclared-property", .error)
    static let propertyNameCase = ValidationRule("property-name-case", .warning)
    static let reservedName = ValidationRule("reserved-name", .error)
    static let shadowingName = ValidationRule("shadowing-name", .warning)

    // MARK: Relationships

    static let unknownDestinationEntity = ValidationRule("unknown-destination-entity", .error)
    static let missingInverse = ValidationRule("missing-inverse", .warning)
    static let unknownInverse = ValidationRule("unknown-inverse", .error)
    static let asymmetricInverse = ValidationRule("asymmetric-inverse", .warning)
    static let inverseEntityMismatch = ValidationRule("inverse-entity-mismatch", .error)
    static let invalidCount = ValidationRule("invalid-count", .warning)
    static let minCountGreaterThanMaxCount = ValidationRule(
        "min-count-greater-than-max-count", .error)
    static let orderedToOne = ValidationRule("ordered-to-one", .warning)
    static let toOneMaxCount = ValidationRule("to-one-max-count", .warning)
    static let unknownDeleteRule = ValidationRule("unknown-delete-rule", .warning)

    // MARK: Attributes

    static let unknownAttributeType = ValidationRule("unknown-attribute-type", .error)
    static let missingAttributeType = ValidationRule("missing-attribute-type", .error)
    static let unknownComposite = ValidationRule("unknown-composite", .error)
    static let lenientDefaultValue = ValidationRule("lenient-default-value", .warning)
    static let ignoredDefaultValue = ValidationRule("ignored-default-value", .warning)
    static let defaultValueOutOfRange = ValidationRule("default-value-out-of-range", .error)
    static let defaultOutsideMinMax = ValidationRule("default-outside-min-max", .warning)
    static let invalidMinMax = ValidationRule("invalid-min-max", .warning)
    static let minGreaterThanMax = ValidationRule("min-greater-than-max", .error)
    static let invalidRegularExpression = ValidationRule("invalid-regular-expression", .error)
    static let missingDerivationExpression = ValidationRule(
        "missing-derivation-expression", .error)
    static let invalidDerivationExpression = ValidationRule(
        "invalid-derivation-expression", .error)

    // MARK: Constraints and indexes

    static let unknownConstraintProperty = ValidationRule("unknown-constraint-property", .error)
    static let invalidConstraintProperty = ValidationRule("invalid-constraint-property", .error)
    static let unknownIndexProperty = ValidationRule("unknown-index-property", .error)
    static let invalidIndexProperty = ValidationRule("invalid-index-property", .warning)
    static let emptyIndex = ValidationRule("empty-index", .warning)

    // MARK: Fetch requests and configurations

    static let duplicateFetchTemplate = ValidationRule("duplicate-fetch-template", .error)
    static let unknownFetchEntity = ValidationRule("unknown-fetch-entity", .error)
    static let invalidPredicate = ValidationRule("invalid-predicate", .error)
    static let duplicateConfiguration = ValidationRule("duplicate-configuration", .error)
    static let unknownConfigurationEntity = ValidationRule(
        "unknown-configuration-entity", .error)
    static let duplicateConfigurationEntity = ValidationRule(
        "duplicate-configuration-entity", .warning)
}
