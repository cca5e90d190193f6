/// Every problem validation found, at once: what a save throws (inside
/// ``SaveError/validation(_:)``) and what ``ManagedObject/validateForInsert()``,
/// ``ManagedObject/validateForUpdate()``, ``ManagedObject/validateForDelete()`` and
/// ``ManagedObject/validateValue(_:forKey:)`` throw when called directly. One problem or many,
/// it is the same error (Core Data's single validation error, or its
/// `NSValidationMultipleErrorsError` with the list under `NSDetailedErrorsKey`). A failed save
/// keeps the context's changes so they can be fixed.
///
/// ```swift
/// do { try context.save() }
/// catch SaveError.validation(let error) {
///     for problem in error.problems { print(problem) }  // Student.name: a value is required
/// }
/// do { try student.validateForUpdate() }
/// catch let error as ValidationError { print(error.problems.map(\.rule)) }  // [.required]
/// ```
public struct ValidationError: Error, Sendable, Hashable, CustomStringConvertible {
    /// One broken rule.
    public struct Problem: Sendable, Hashable, CustomStringConvertible {
        /// Which rule (Core Data's validation error codes, by name).
        public enum Rule: String, Sendable, Hashable {
            /// A required property is nil (`NSValidationMissingMandatoryPropertyError`).
            case required
            /// A number is below the attribute's minimum (`NSValidationNumberTooSmallError`).
            case tooSmall
            /// A number is above the attribute's maximum (`NSValidationNumberTooLargeError`).
            case tooLarge
            /// A string is shorter than the attribute's minimum length
            /// (`NSValidationStringTooShortError`).
            case tooShort
            /// A string is longer than the attribute's maximum length
            /// (`NSValidationStringTooLongError`).
            case tooLong
            /// A date is before the attribute's minimum (`NSValidationDateTooSoonError`).
            case tooEarly
            /// A date is after the attribute's maximum (`NSValidationDateTooLateError`).
            case tooLate
            /// A string does not match the attribute's regular expression
            /// (`NSValidationStringPatternMatchingError`).
            case patternMismatch
            /// A to-many relationship holds fewer objects than its minimum count
            /// (`NSValidationRelationshipLacksMinimumCountError`).
            case tooFewObjects
            /// A to-many relationship holds more objects than its maximum count
            /// (`NSValidationRelationshipExceedsMaximumCountError`).
            case tooManyObjects
            /// The object cannot be deleted: a relationship with the deny rule still holds
            /// objects (`NSValidationRelationshipDeniedDeleteError`).
            case deleteDenied
            /// The value breaks uniqueness. ObjectGraph reports uniqueness conflicts as
            /// ``SaveError/constraintConflicts(_:)`` instead; the rule is here for problems an
            /// app reports itself.
            case notUnique
            /// A rule of the app's own: a problem thrown by an override of
            /// ``ManagedObject/validateValue(_:forKey:)`` or the `validateFor…` methods.
            case custom
            /// A validation predicate of the attribute (``Attribute/validationPredicates``) does
            /// not hold; the message is its warning.
            case predicate
            /// A relationship holds an object that will not exist after the save (an insert
            /// discarded by ``ManagedContext/refresh(_:mergeChanges:)``): Core Data's "Dangling
            /// reference to an invalid object". The value is the missing object's ID.
            case danglingReference
            /// A typed, non-throwing write (a property of a generated class) the object could
            /// not take: an object of another context or of the wrong entity, a value the
            /// attribute's type does not hold. The value is what was written (an object's ID
            /// for a relationship); the message says why. A later write of the property that
            /// succeeds, or ``ManagedContext/rollback()``, clears it.
            case rejectedWrite
        }

        /// The object.
        public var objectID: ObjectID
        /// Its entity.
        public var entity: String
        /// The property, or `nil` for a whole-object rule.
        public var property: String?
        /// The rule broken.
        public var rule: Rule
        /// The offending value (``Value/null`` when none applies).
        public var value: Value
        /// What is wrong, in words.
        public var message: String
        /// The validation predicate that did not hold (rule ``Rule/predicate``), else `nil`.
        public var predicate: Predicate?

        /// Creates a problem: for a rule of your own, `rule` is ``Rule/custom``.
        public init(
            objectID: ObjectID, entity: String, property: String?, rule: Rule, value: Value,
            message: String, predicate: Predicate? = nil
        ) {
            self.objectID = objectID
            self.entity = entity
            self.property = property
            self.rule = rule
            self.value = value
            self.message = message
            self.predicate = predicate
        }

        /// `Entity.property (x-coredata://…): message`.
        public var description: String {
            let place = property.map { "\(entity).\($0)" } ?? entity
            return "\(place) (\(objectID)): \(message)"
        }
    }

    /// The problems, in the order found.
    public var problems: [Problem]

    /// Creates an error of `problems`.
    public init(problems: [Problem]) {
        self.problems = problems
    }

    /// One line per problem.
    public var description: String {
        "validation failed with \(problems.count) problem(s):\n"
            + problems.map { "  \($0)" }.joined(separator: "\n")
    }
}
