/// An entity: a kind of managed object with attributes, relationships and rules.
///
/// ```swift
/// var person = Entity("Person", isAbstract: true)
/// person.attributes = [Attribute("name", type: .string)]
/// var student = Entity("Student", parent: "Person")
/// student.uniquenessConstraints = [["studentNumber"]]
/// ```
public struct Entity: Sendable, Hashable {
    /// Xcode's code generation setting (`codeGenerationType`).
    public enum CodeGeneration: Sendable, Hashable {
        /// Xcode generates the class (`class`).
        case classDefinition
        /// Xcode generates a category/extension (`category`).
        case category
        /// Another spelling, kept as read.
        case other(String)
    }

    /// The entity name.
    public var name: String
    /// The class that represents it (`representedClassName`); `nil` means the base class.
    public var className: String?
    /// The parent entity's name (`parentEntity`).
    public var parentName: String?
    /// Whether the entity cannot be instantiated (`isAbstract="YES"`).
    public var isAbstract: Bool
    /// The renaming identifier used by migration (Xcode's `elementID`).
    public var renamingIdentifier: String?
    /// The version hash modifier (`versionHashModifier`).
    public var versionHashModifier: String?
    /// Whether Xcode marked the entity `syncable="YES"`.
    public var isSyncable: Bool
    /// Xcode's code generation setting; `nil` means manual.
    public var codeGeneration: CodeGeneration?
    /// The attributes declared on this entity (not inherited ones), in file order.
    public var attributes: [Attribute]
    /// The relationships declared on this entity, in file order.
    public var relationships: [Relationship]
    /// The fetched properties declared on this entity.
    public var fetchedProperties: [FetchedProperty]
    /// Fetch indexes (`<fetchIndex>`).
    public var fetchIndexes: [FetchIndex]
    /// Uniqueness constraints: each is a list of property names that together must be unique.
    public var uniquenessConstraints: [[String]]
    /// Compound indexes of old models (`<compoundIndexes>`): each a list of property names.
    public var compoundIndexes: [[String]]
    /// User info entries.
    public var userInfo: UserInfo
    /// XML attributes this version does not know.
    public var unknownXMLAttributes: [String: String]
    /// Where the entity was read from (not part of equality).
    @EqualityIgnored public var location: SourceLocation? = nil

    /// Creates an entity. Unlisted fields take Xcode's defaults.
    public init(
        _ name: String, className: String? = nil, parent: String? = nil, isAbstract: Bool = false,
        attributes: [Attribute] = [], relationships: [Relationship] = []
    ) {
        self.name = name
        self.className = className
        parentName = parent
        self.isAbstract = isAbstract
        renamingIdentifier = nil
        versionHashModifier = nil
        isSyncable = false
        codeGeneration = nil
        self.attributes = attributes
        self.relationships = relationships
        fetchedProperties = []
        fetchIndexes = []
        uniquenessConstraints = []
        compoundIndexes = []
        userInfo = UserInfo()
        unknownXMLAttributes = [:]
    }

    /// The declared attribute named `name`.
    public func attribute(named name: String) -> Attribute? {
        attributes.first { $0.name == name }
    }

    /// The declared relationship named `name`.
    public func relationship(named name: String) -> Relationship? {
        relationships.first { $0.name == name }
    }
}
