/// Why the model a Core Data store keeps in `Z_MODELCACHE` could not be read. Every case names
/// the store (or whatever `source` the caller gave) and, past the archive's own checks, the
/// archive object (its index in `$objects` and its class) that is wrong.
///
/// ```swift
/// do { _ = try EntityModel(modelCache: bytes, source: "Notes.sqlite") }
/// catch { print(error) }
/// // Notes.sqlite: model cache, archive object 24 (NSEntityDescription): NSEntityName is not a string
/// ```
public enum ArchivedModelError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The raw DEFLATE stream is truncated or malformed, or inflates past the size limit.
    case compression(source: String, InflateError)
    /// The inflated bytes are not a well-formed `NSKeyedArchiver` archive; `reason` names the
    /// byte or the archive object.
    case archive(source: String, reason: String)
    /// The archive object at `index` (of class `className`) does not describe a model part.
    case object(source: String, index: Int, className: String, reason: String)

    /// The error in one line.
    public var description: String {
        switch self {
        case .compression(let source, let error):
            return "\(source): model cache: \(error)"
        case .archive(let source, let reason):
            return "\(source): model cache: \(reason)"
        case .object(let source, let index, let className, let reason):
            return "\(source): model cache, archive object \(index) (\(className)): \(reason)"
        }
    }
}
