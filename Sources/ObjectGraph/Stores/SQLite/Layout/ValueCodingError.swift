/// Why a value could not be converted between an attribute and its SQLite column.
///
/// ```swift
/// // "cannot read a TEXT value 'abc' as Date"
/// ```
public struct ValueCodingError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The attribute type involved.
    public let attributeType: AttributeType
    /// What is wrong, in one sentence.
    public let message: String

    /// Creates an error.
    public init(attributeType: AttributeType, _ message: String) {
        self.attributeType = attributeType
        self.message = message
    }

    /// The message.
    public var description: String { message }
}
