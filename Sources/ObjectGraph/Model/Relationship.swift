/// What happens to related objects when an object is deleted.
public enum DeleteRule: String, Sendable, Hashable, CaseIterable {
    /// Set the inverse to nil / remove the object from the inverse collection (`Nullify`).
    case nullify = "Nullify"
    /// Delete the related objects too (`Cascade`).
    case cascade = "Cascade"
    /// Refuse to delete while related objects exist (`Deny`).
    case deny = "Deny"
    /// Do nothing to related objects (`No Action`).
    case noAction = "No Action"
}

/// A relationship from one entity to another.
///
/// ```swift
/// var students = Relationship("students", destination: "Student", toMany: true)
/// students.inverseName = "course"
/// students.deleteRule = .cascade
/// ```
public struct Relationship: Sendable, Hashable {
    /// The property name.
    public var name: String
    /// The destination entity's name (`destinationEntity`).
    public var destinationEntityName: String
    /// The inverse relationship's name (`inverseName`), or `nil` when it has none.
    public var inverseName: String?
    /// The entity declaring the inverse (`inverseEntity`); usually the destination.
    public var inverseEntityName: String?
    /// Whether the relationship holds many objects (`toMany="YES"`).
    public var isToMany: Bool
    /// Whether a to-many relationship keeps its objects in order (`ordered="YES"`).
    public var isOrdered: Bool
    /// The minimum count as written (`minCount`), `nil` when absent.
    public var minCountString: String?
    /// The maximum count as written (`maxCount`), `nil` when absent.
    public var maxCountString: String?
    /// The delete rule (`deletionRule`).
    public var deleteRule: DeleteRule
    /// The delete rule as written when Xcode's vocabulary did not contain it.
    public var unknownDeleteRule: String?
    /// Whether the relationship may be empty (`optional="YES"`).
    public var isOptional: Bool
    /// Whether the relationship is kept in memory only (`transient="YES"`).
    public var isTransient: Bool
    /// Whether the foreign key is indexed (`indexed="YES"`, old models only).
    public var isIndexed: Bool
    /// Whether the value is stored in the external record (`storedInTruthFile`).
    public var isStoredInExternalRecord: Bool
    /// Whether Spotlight indexes the relationship (`spotlightIndexingEnabled`).
    public var isIndexedBySpotlight: Bool
    /// The renaming identifier used by migration (Xcode's `elementID`).
    public var renamingIdentifier: String?
    /// The version hash modifier (`versionHashModifier`).
    public var versionHashModifier: String?
    /// Whether Xcode marked the property `syncable="YES"`.
    public var isSyncable: Bool
    /// User info entries.
    public var userInfo: UserInfo
    /// XML attributes this version does not know, kept so a written model keeps them.
    public var unknownXMLAttributes: [String: String]
    /// Where the relationship was read from (not part of equality).
    @EqualityIgnored public var location: SourceLocation? = nil

    /// Creates a relationship. Unlisted fields take Xcode's defaults.
    public init(
        _ name: String, destination: String, toMany: Bool = false, inverse: String? = nil,
        deleteRule: DeleteRule = .nullify, isOptional: Bool = true, isOrdered: Bool = false
    ) {
        self.name = name
        destinationEntityName = destination
        inverseName = inverse
        inverseEntityName = inverse == nil ? nil : destination
        isToMany = toMany
        self.isOrdered = isOrdered
        minCountString = nil
        maxCountString = toMany ? nil : "1"
        self.deleteRule = deleteRule
        unknownDeleteRule = nil
        self.isOptional = isOptional
        isTransient = false
        isIndexed = false
        isStoredInExternalRecord = false
        isIndexedBySpotlight = false
        renamingIdentifier = nil
        versionHashModifier = nil
        isSyncable = false
        userInfo = UserInfo()
        unknownXMLAttributes = [:]
    }

    /// The minimum count (0 when absent or unreadable).
    public var minCount: Int { minCountString.flatMap { Int($0) } ?? 0 }

    /// The maximum count: 0 means unbounded. Absent means 0 for to-many, 1 for to-one.
    public var maxCount: Int {
        if let value = maxCountString.flatMap({ Int($0) }) { return value }
        return isToMany ? 0 : 1
    }
}
