/// Property names that clash with members of managed objects.
///
/// Core Data's rule (NSPropertyDescription): a property name cannot be the same as any
/// no-parameter method of `NSObject` or `NSManagedObject`; Xcode refuses `description`. Those
/// names are in ``refused`` and are errors (`reserved-name`). ``shadowing`` holds names Core Data
/// accepts but that resolve to another member through key-value coding (`deleted` reads
/// `isDeleted`), or that ObjectGraph's `ManagedObject` and generated Swift code use; they are
/// warnings (`shadowing-name`).
enum ReservedNames {
    /// No-parameter methods of `NSObject` and `NSManagedObject`: a property cannot take these
    /// names.
    static let refused: Set<String> = [
        // NSObject (protocol and class)
        "autorelease", "class", "classForCoder", "classForKeyedArchiver", "copy", "dealloc",
        "debugDescription", "description", "finalize", "hash", "init", "isProxy", "mutableCopy",
        "observationInfo", "release", "retain", "retainCount", "self", "superclass", "zone",
        // NSManagedObject
        "awakeFromFetch", "awakeFromInsert", "changedValues", "changedValuesForCurrentEvent",
        "didSave", "didTurnIntoFault", "entity", "faultingState", "hasChanges",
        "hasPersistentChangedValues", "isDeleted", "isFault", "isInserted", "isUpdated",
        "managedObjectContext", "objectID", "prepareForDeletion", "willSave",
        "willTurnIntoFault",
    ]

    /// Names Core Data accepts that still collide with a managed object's members.
    static let shadowing: Set<String> = [
        // Key-value coding finds the `is…` getter first: `value(forKey: "deleted")` is `isDeleted`.
        "deleted", "fault", "inserted", "updated",
        // ObjectGraph's ManagedObject and Swift's ObservableObject conformance.
        "changedKeys", "context", "objectWillChange",
        // Cocoa paradigms Apple's documentation warns about.
        "isEditing", "objectSpecifier",
    ]
}
