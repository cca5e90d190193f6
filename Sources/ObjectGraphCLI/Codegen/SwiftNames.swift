/// Names in generated Swift: identifiers made from model names, Swift keywords escaped, and
/// property names that would clash with ``ObjectGraph/ManagedObject`` members renamed.
enum SwiftNames {
    /// Words a property name may not be without backticks.
    static let keywords: Set<String> = [
        "associatedtype", "class", "deinit", "enum", "extension", "fileprivate", "func",
        "import", "init", "inout", "internal", "let", "open", "operator", "private",
        "precedencegroup", "protocol", "public", "rethrows", "static", "struct", "subscript",
        "typealias", "var", "break", "case", "catch", "continue", "default", "defer", "do",
        "else", "fallthrough", "for", "guard", "if", "in", "repeat", "return", "throw",
        "switch", "where", "while", "Any", "as", "await", "false", "is", "nil", "super",
        "throws", "true", "try", "consume", "copy", "borrowing", "consuming", "some", "any",
        "package", "each", "discard",
    ]

    /// Names that cannot be properties even with backticks (renamed instead).
    static let unescapable: Set<String> = ["self", "Self", "Type", "Protocol", "_"]

    /// Members of `ManagedObject` (public API, lifecycle hooks, the generated classes' own
    /// members, and internals visible to `@testable` importers) a property must not shadow.
    static let managedObjectMembers: Set<String> = [
        "objectID", "entity", "context", "isInserted", "isDeleted", "isFault", "isUpdated",
        "hasChanges", "description", "awakeFromInsert", "awakeFromFetch", "willSave", "didSave",
        "prepareForDeletion", "willTurnIntoFault", "didTurnIntoFault", "validateValue",
        "validateObjects", "validateForInsert", "validateForUpdate", "validateForDelete",
        "value", "object", "objects", "hasFault", "objectIDs", "set", "setObject", "setObjects",
        "add", "remove", "changedValues", "committedValues", "changedKeys",
        "hasPersistentChangedValues", "codable", "setCodable", "validationError",
        "combiningValidationErrors", "attributeValue", "setAttributeValue", "codableValue",
        "setCodableValue", "relatedObject", "setRelatedObject", "relatedObjects",
        "addRelatedObject", "removeRelatedObject", "setRelatedObjects", "setRelatedSet",
        "setRelatedList", "predicateValue", "predicateObjectID", "entityName", "fetchRequest",
        "registerModelClasses", "propertyName", "schema", "slots", "slotBlock", "slotOffset",
        "originals", "version", "link", "flags", "state", "touchIndex", "hasCommitted",
        "insertedFlag", "deletedFlag", "isUnfired", "fulfill", "requireContext",
    ]

    /// `name` as a Swift identifier: characters that cannot be in one become `_`, and a
    /// leading digit gets a `_` before it.
    static func identifier(_ name: String) -> String {
        var result = ""
        for (index, character) in name.enumerated() {
            let allowed =
                character == "_" || character.isLetter || (index > 0 && character.isNumber)
            if index == 0 && character.isNumber { result.append("_") }
            result.append(allowed || character.isNumber ? character : "_")
        }
        return result.isEmpty ? "_unnamed" : result
    }

    /// `name` with its first letter upper-cased (`students` → `Students`), for accessor names.
    static func capitalized(_ name: String) -> String {
        guard let first = name.first else { return name }
        return first.uppercased() + name.dropFirst()
    }
}
