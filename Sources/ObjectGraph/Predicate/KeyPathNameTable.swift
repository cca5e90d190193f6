/// A table of key paths and the model properties they name: what a generated class's
/// ``KeyPathNaming`` conformance reads.
///
/// ```swift
/// static let keyPathNames = KeyPathNameTable([\Student.name: "name", \Student.advisor?.name: "advisor.name"])
/// keyPathNames.name(for: \Student.name)   // "name"
/// ```
///
/// `@unchecked Sendable`: `AnyKeyPath` is not declared `Sendable`, but a key path is an
/// immutable value, and the table never changes after it is made.
public struct KeyPathNameTable: @unchecked Sendable {
    private let names: [AnyKeyPath: String]

    /// A table of `names`.
    public init(_ names: [AnyKeyPath: String]) {
        self.names = names
    }

    /// The property `keyPath` names, or `nil` when the table does not list it.
    public func name(for keyPath: AnyKeyPath) -> String? {
        names[keyPath]
    }
}
