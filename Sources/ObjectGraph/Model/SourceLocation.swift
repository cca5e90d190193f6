/// A place in a model file: the file's path, a 1-based line and a 1-based column.
///
/// Locations are carried by loaded model elements for diagnostics. They never take part in
/// equality: two models loaded from differently formatted files are equal when their content is.
public struct SourceLocation: Sendable, Hashable, CustomStringConvertible {
    /// The file's path, or `nil` when the model came from in-memory data.
    public var file: String?
    /// The 1-based line.
    public var line: Int
    /// The 1-based column.
    public var column: Int

    /// Creates a location.
    public init(file: String?, line: Int, column: Int) {
        self.file = file
        self.line = line
        self.column = column
    }

    /// `path:line:column`, the form compilers print.
    public var description: String {
        "\(file ?? "<data>"):\(line):\(column)"
    }
}

/// A stored property that never affects the `Equatable` and `Hashable` conformances of the type
/// that holds it (used for source locations).
@propertyWrapper
public struct EqualityIgnored<Wrapped: Sendable>: Sendable, Hashable {
    /// The stored value.
    public var wrappedValue: Wrapped

    /// Wraps a value.
    public init(wrappedValue: Wrapped) { self.wrappedValue = wrappedValue }

    /// Always `true`: the wrapped value is not part of equality.
    public static func == (lhs: Self, rhs: Self) -> Bool { true }

    /// Adds nothing to the hash.
    public func hash(into hasher: inout Hasher) {}
}
