/// Why ``EntityModel/write(to:)`` could not write a model.
///
/// ```swift
/// do { try model.write(to: url) }
/// catch let error as ModelWriteError { print(error) }  // /ro/School.xcdatamodeld: error: …
/// ```
public struct ModelWriteError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The file or folder that could not be written or created.
    public var path: String
    /// Why, in a few words.
    public var reason: String

    /// Creates an error.
    public init(path: String, reason: String) {
        self.path = path
        self.reason = reason
    }

    /// `path: error: reason`.
    public var description: String { "\(path): error: \(reason)" }
}
