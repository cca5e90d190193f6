import Foundation

/// An attribute of an entity: a named value of one ``AttributeType``.
///
/// Every field Xcode writes is kept, so a model written back is the model that was read.
///
/// ```swift
/// var age = Attribute("age", type: .integer16)
/// age.minValueString = "0"
/// let name = Attribute("name", type: .string, isOptional: false)
/// ```
public struct Attribute: Sendable, Hashable {
    /// The property name.
    public var name: String
    /// The value type.
    public var type: AttributeType
    /// Whether the value may be nil (`optional="YES"`).
    public var isOptional: Bool
    /// Whether the value is kept in memory only (`transient="YES"`).
    public var isTransient: Bool
    /// Whether stores index the value (`indexed="YES"`).
    public var isIndexed: Bool
    /// The default value as Xcode wrote it (`defaultValueString`), often loosely typed.
    public var defaultValueString: String?
    /// A Date default as seconds since 2001-01-01 (`defaultDateTimeInterval`).
    public var defaultDateTimeInterval: Double?
    /// Whether generated code uses a scalar type (`usesScalarValueType`); `nil` when absent.
    public var usesScalarValueType: Bool?
    /// The minimum value (numbers) or length (strings), as written (`minValueString`).
    public var minValueString: String?
    /// The maximum value (numbers) or length (strings), as written (`maxValueString`).
    public var maxValueString: String?
    /// The minimum of a Date attribute as seconds since 2001-01-01 (`minDateTimeInterval`).
    public var minDateTimeInterval: Double?
    /// The maximum of a Date attribute as seconds since 2001-01-01 (`maxDateTimeInterval`).
    public var maxDateTimeInterval: Double?
    /// An ICU regular expression string values must match (`regularExpressionString`).
    public var regularExpression: String?
    /// Further rules the value must satisfy, each with its warning text (Core Data's
    /// `validationPredicates` and `validationWarnings`). Set in code: Xcode's model files do not
    /// carry them, so they are neither read nor written.
    public var validationPredicates: [ValidationPredicate]
    /// Whether large values may live outside the store (`allowsExternalBinaryDataStorage`).
    public var allowsExternalBinaryDataStorage: Bool
    /// Whether the value is derived from ``derivationExpression`` (`derived="YES"`).
    public var isDerived: Bool
    /// The expression a derived attribute is computed from (`derivationExpression`).
    public var derivationExpression: String?
    /// The value transformer's name (`valueTransformerName`), for Transformable attributes.
    public var valueTransformerName: String?
    /// The Swift or Objective-C class of the value (`customClassName`).
    public var customClassName: String?
    /// Whether the value is kept in persistent history after deletion (`preserveAfterDeletion`).
    public var preservesValueInHistoryOnDeletion: Bool
    /// Whether Spotlight indexes the value (`spotlightIndexingEnabled`).
    public var isIndexedBySpotlight: Bool
    /// Whether the value is stored in the external record (`storedInTruthFile`).
    public var isStoredInExternalRecord: Bool
    /// The renaming identifier used by migration (Xcode's `elementID`).
    public var renamingIdentifier: String?
    /// The version hash modifier (`versionHashModifier`).
    public var versionHashModifier: String?
    /// Whether Xcode marked the property `syncable="YES"`.
    public var isSyncable: Bool
    /// The name of the composite type of a Composite attribute (`composite`).
    public var compositeName: String?
    /// User info entries.
    public var userInfo: UserInfo
    /// XML attributes this version does not know, kept so a written model keeps them.
    public var unknownXMLAttributes: [String: String]
    /// Where the attribute was read from (not part of equality).
    @EqualityIgnored public var location: SourceLocation? = nil

    /// Creates an attribute. Unlisted fields take Xcode's defaults.
    public init(
        _ name: String, type: AttributeType, isOptional: Bool = true, isTransient: Bool = false,
        isIndexed: Bool = false, defaultValueString: String? = nil
    ) {
        self.name = name
        self.type = type
        self.isOptional = isOptional
        self.isTransient = isTransient
        self.isIndexed = isIndexed
        self.defaultValueString = defaultValueString
        defaultDateTimeInterval = nil
        usesScalarValueType = nil
        minValueString = nil
        maxValueString = nil
        minDateTimeInterval = nil
        maxDateTimeInterval = nil
        regularExpression = nil
        validationPredicates = []
        allowsExternalBinaryDataStorage = false
        isDerived = false
        derivationExpression = nil
        valueTransformerName = nil
        customClassName = nil
        preservesValueInHistoryOnDeletion = false
        isIndexedBySpotlight = false
        isStoredInExternalRecord = false
        renamingIdentifier = nil
        versionHashModifier = nil
        isSyncable = false
        compositeName = nil
        userInfo = UserInfo()
        unknownXMLAttributes = [:]
    }
}
