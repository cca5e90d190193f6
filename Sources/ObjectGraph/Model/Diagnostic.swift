/// One finding about a model: what is wrong, where, and which rule says so.
///
/// Diagnostics print in compiler style: `path:line:column: error: message [rule-id]`.
public struct Diagnostic: Sendable, Hashable, CustomStringConvertible {
    /// How serious a finding is.
    public enum Severity: String, Sendable, Hashable, Comparable {
        /// A model that loads but is probably not what the author meant.
        case warning
        /// A model Core Data would reject or misread.
        case error

        /// Warnings order before errors.
        public static func < (lhs: Severity, rhs: Severity) -> Bool {
            lhs == .warning && rhs == .error
        }
    }

    /// How serious it is.
    public var severity: Severity
    /// A stable identifier of the rule, such as `duplicate-entity`.
    public var ruleID: String
    /// What is wrong, in one sentence.
    public var message: String
    /// Where, when known.
    public var location: SourceLocation?
    /// The entity concerned, if any.
    public var entity: String?
    /// The property concerned, if any.
    public var property: String?

    /// Creates a diagnostic.
    public init(
        _ severity: Severity, _ ruleID: String, _ message: String,
        location: SourceLocation? = nil, entity: String? = nil, property: String? = nil
    ) {
        self.severity = severity
        self.ruleID = ruleID
        self.message = message
        self.location = location
        self.entity = entity
        self.property = property
    }

    /// `path:line:column: severity: message [rule-id]`.
    public var description: String {
        let place = location.map { "\($0): " } ?? ""
        return "\(place)\(severity.rawValue): \(message) [\(ruleID)]"
    }
}
