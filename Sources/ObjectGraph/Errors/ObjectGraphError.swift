/// A failure of an object-graph operation: what was asked, of which entity and property, and why.
///
/// This is the family of misuse: a name the model lacks, a value of the wrong type, an object of
/// another context, a request the coordinator cannot route. What goes wrong inside a store (a file
/// that cannot be read or written) is a ``StoreError`` instead, naming the file.
///
/// ```swift
/// do { try student.set("ten", for: "age") }
/// catch let error as ObjectGraphError { print(error) }
/// // Student.age: expected Integer 16, got the string "ten"
/// ```
public enum ObjectGraphError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The model has no entity with this name.
    case unknownEntity(String)
    /// The entity has no property with this name.
    case unknownProperty(entity: String, property: String)
    /// The property is a relationship where an attribute was expected, or the other way round.
    case wrongPropertyKind(entity: String, property: String, expected: String)
    /// The value does not fit the attribute's type.
    case typeMismatch(entity: String, property: String, expected: String, got: String)
    /// The object is not of the relationship's destination entity.
    case wrongDestination(entity: String, property: String, expected: String, got: String)
    /// An abstract entity cannot be instantiated.
    case abstractEntity(String)
    /// No object with this ID exists in the stores.
    case objectNotFound(ObjectID)
    /// The object belongs to another context, or to none.
    case foreignObject(entity: String, property: String)
    /// The object was deleted and saved; it cannot be used any more.
    case objectIsGone(ObjectID)
    /// No store holds this entity (no store added, or no configuration includes it).
    case noStore(entity: String)
    /// The URI is not an object ID of any store of this coordinator.
    case invalidObjectURI(String)
    /// The coordinator has no configuration with this name.
    case unknownConfiguration(String)
    /// A store of this type (``StoreType/rawValue``) needs a file URL and none was given.
    case storeNeedsURL(type: String)
    /// The coordinator has no store with this identifier.
    case unknownStore(String)
    /// A new store was asked for at a file that exists already (it is left as it is).
    case fileExists(path: String)
    /// A context was given a query generation token (its description) made by another
    /// coordinator: a context reads only its own coordinator's generations.
    case queryGenerationOfAnotherCoordinator(String)
    /// The operation is not supported (yet) in this configuration.
    case unsupported(String)

    /// A one-line explanation.
    public var description: String {
        switch self {
        case .unknownEntity(let name): return "the model has no entity named '\(name)'"
        case .unknownProperty(let entity, let property):
            return "\(entity) has no property named '\(property)'"
        case .wrongPropertyKind(let entity, let property, let expected):
            return "\(entity).\(property) is not \(expected)"
        case .typeMismatch(let entity, let property, let expected, let got):
            return "\(entity).\(property): expected \(expected), got \(got)"
        case .wrongDestination(let entity, let property, let expected, let got):
            return "\(entity).\(property) holds \(expected) objects, not \(got)"
        case .abstractEntity(let name):
            return "\(name) is abstract and cannot be instantiated"
        case .objectNotFound(let id): return "no object with ID \(id)"
        case .foreignObject(let entity, let property):
            return "\(entity).\(property): the object belongs to another context"
        case .objectIsGone(let id): return "the object \(id) was deleted"
        case .noStore(let entity): return "no store holds entity \(entity)"
        case .invalidObjectURI(let uri): return "'\(uri)' is not an object ID of these stores"
        case .unknownConfiguration(let name):
            return "the model has no configuration named '\(name)'"
        case .storeNeedsURL(let type): return "a \(type) store needs a file URL"
        case .unknownStore(let identifier): return "the coordinator has no store \(identifier)"
        case .fileExists(let path): return "\(path): a file is already there"
        case .queryGenerationOfAnotherCoordinator(let token):
            return "the query generation token (\(token)) belongs to another coordinator"
        case .unsupported(let message): return message
        }
    }
}
