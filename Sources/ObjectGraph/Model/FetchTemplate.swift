/// A fetch request stored in a model: a model-level template (`<fetchRequest>` under `<model>`)
/// or the request of a fetched property.
///
/// ```swift
/// var byName = FetchTemplate("byName", entity: "Student")
/// byName.predicateString = "name == $NAME"
/// ```
public struct FetchTemplate: Sendable, Hashable {
    /// The template's name.
    public var name: String
    /// The entity it fetches.
    public var entityName: String
    /// The predicate in Apple's format syntax, possibly with `$VARIABLES`.
    public var predicateString: String?
    /// The fetch limit (`fetchLimit`).
    public var fetchLimit: Int?
    /// The batch size (`fetchBatchSize`).
    public var fetchBatchSize: Int?
    /// The result type as Xcode writes it: 0 objects, 1 object IDs, 2 dictionaries, 4 count.
    public var resultType: Int?
    /// `includeSubentities="YES"`.
    public var includesSubentities: Bool
    /// `includePropertyValues="YES"`.
    public var includesPropertyValues: Bool
    /// `includesPendingChanges="YES"`.
    public var includesPendingChanges: Bool
    /// `returnObjectsAsFaults="YES"`.
    public var returnsObjectsAsFaults: Bool
    /// `returnDistinctResults="YES"`.
    public var returnsDistinctResults: Bool
    /// XML attributes this version does not know.
    public var unknownXMLAttributes: [String: String]
    /// Where the template was read from (not part of equality).
    @EqualityIgnored public var location: SourceLocation? = nil

    /// Creates a template.
    public init(_ name: String, entity: String, predicate: String? = nil) {
        self.name = name
        entityName = entity
        predicateString = predicate
        fetchLimit = nil
        fetchBatchSize = nil
        resultType = nil
        includesSubentities = false
        includesPropertyValues = false
        includesPendingChanges = false
        returnsObjectsAsFaults = false
        returnsDistinctResults = false
        unknownXMLAttributes = [:]
    }
}

/// A fetched property: a weak, one-way relationship computed by a fetch
/// (`<fetchedProperty>` holding one `<fetchRequest>`).
public struct FetchedProperty: Sendable, Hashable {
    /// The property name.
    public var name: String
    /// Whether it is optional (`optional="YES"`).
    public var isOptional: Bool
    /// Whether Xcode marked it `syncable="YES"`.
    public var isSyncable: Bool
    /// The fetch request (Xcode names it `fetchedPropertyFetchRequest`).
    public var fetchRequest: FetchTemplate
    /// User info entries.
    public var userInfo: UserInfo
    /// XML attributes this version does not know.
    public var unknownXMLAttributes: [String: String]
    /// Where it was read from (not part of equality).
    @EqualityIgnored public var location: SourceLocation? = nil

    /// Creates a fetched property.
    public init(_ name: String, fetchRequest: FetchTemplate, isOptional: Bool = true) {
        self.name = name
        self.fetchRequest = fetchRequest
        self.isOptional = isOptional
        isSyncable = false
        userInfo = UserInfo()
        unknownXMLAttributes = [:]
    }
}
