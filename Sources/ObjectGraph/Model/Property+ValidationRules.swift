extension Attribute {
    /// Whether the model gives the attribute's values rules to check: required, minimum and
    /// maximum, a regular expression or validation predicates.
    var hasValidationRules: Bool {
        !isOptional || minValueString != nil || maxValueString != nil
            || regularExpression != nil || minDateTimeInterval != nil
            || maxDateTimeInterval != nil || !validationPredicates.isEmpty
    }
}

extension Relationship {
    /// Whether the model gives the relationship rules to check at save: required, or a minimum
    /// or maximum count of a to-many relationship.
    var hasValidationRules: Bool {
        !isOptional || (isToMany && (minCount > 0 || maxCount > 0))
    }
}
