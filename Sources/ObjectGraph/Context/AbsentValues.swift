import Foundation

/// What a generated class's non-optional property reads while its attribute holds no value (a
/// required attribute not set yet, which the next save reports as missing): the type's zero.
///
/// ```swift
/// var id: UUID { get { attributeValue(PersonProperties.id, default: AbsentValues.uuid) } … }
/// ```
public enum AbsentValues {
    /// The all-zero UUID.
    public static let uuid = UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0))
    /// The reference date (2001-01-01 00:00:00 UTC).
    public static let date = Date(timeIntervalSinceReferenceDate: 0)
    /// The file URL of the root folder.
    public static let url = URL(fileURLWithPath: "/")
}
