/// Why a model could not be read.
///
/// Every case says where: the file, and for content errors the line and column.
///
/// ```swift
/// do { _ = try EntityModel(contentsOf: url) }
/// catch let error as ModelError { print(error) }  // Foo.xcdatamodel/contents:3:7: error: …
/// ```
public struct ModelError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What kind of failure it is.
    public enum Kind: String, Sendable, Hashable {
        /// The path does not exist or cannot be read.
        case unreadable
        /// The path exists but is not a model (no `contents`, not a `.xcdatamodel(d)`).
        case notAModel
        /// The XML is not well-formed.
        case malformedXML
        /// The XML is well-formed but is not an Xcode model (wrong root, missing names).
        case invalidStructure
        /// A bundle's current version, or a requested version, does not exist.
        case missingVersion
        /// The file uses a construct refused for safety (entity declarations).
        case forbiddenConstruct
    }

    /// What kind of failure it is.
    public var kind: Kind
    /// What went wrong, in one sentence.
    public var message: String
    /// Where it went wrong: the file, and line and column when known.
    public var location: SourceLocation?

    /// Creates an error.
    public init(_ kind: Kind, _ message: String, location: SourceLocation? = nil) {
        self.kind = kind
        self.message = message
        self.location = location
    }

    /// Creates an error about a whole file (line and column 0 mean "the file itself").
    public init(_ kind: Kind, _ message: String, file: String) {
        self.init(kind, message, location: SourceLocation(file: file, line: 0, column: 0))
    }

    /// `path:line:column: error: message`.
    public var description: String {
        guard let location else { return "error: \(message)" }
        if location.line == 0 { return "\(location.file ?? "<data>"): error: \(message)" }
        return "\(location): error: \(message)"
    }
}
