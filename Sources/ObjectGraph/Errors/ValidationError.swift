/// Every problem a save found, at once. The context keeps its changes so they can be fixed.
///
/// ```swift
/// do { try context.save() }
/// catch SaveError.validation(let error) {
///     for problem in error.problems { print(problem) }  // Student.name: a value is required
/// }
/// ```
public struct ValidationError: Error, Sendable, Hashable, CustomStringConvertible {
    /// One broken rule.
    public struct Problem: Sendable, Hashable, CustomStringConvertible {
        /// Which rule.
        public enum Rule: String, Sendable, Hashable {
            case required, tooSmall, tooLarge, tooShort, tooLong, tooEarly, tooLate
            case patternMismatch, tooFewObjects, tooManyObjects, deleteDenied
            case notUnique, custom
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

        /// `Entity.property (x-coredata://…): message`.
        public var description: String {
            let place = property.map { "\(entity).\($0)" } ?? entity
            return "\(place) (\(objectID)): \(message)"
        }
    }

    /// The problems, in the order found.
    public var problems: [Problem]

    /// One line per problem.
    public var description: String {
        "the save failed validation with \(problems.count) problem(s):\n"
            + problems.map { "  \($0)" }.joined(separator: "\n")
    }
}
