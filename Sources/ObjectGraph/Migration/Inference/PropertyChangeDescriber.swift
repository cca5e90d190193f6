import Foundation

/// The dry-run lines for one property whose values come from a source property:
/// `Person.name: optional → required (default "")`, `Team.members: to-one → to-many`.
struct PropertyChangeDescriber {
    /// `Entity.property`, the prefix of every line.
    let place: String
    /// The destination entity name of the source relationship's destination, by source name.
    let destinationNameBySource: [String: String]

    /// The lines for an attribute.
    func lines(from old: Attribute, to new: Attribute) -> [String] {
        var lines: [String] = []
        if old.type != new.type { lines.append("\(place): type \(old.type) → \(new.type)") }
        lines += optionality(
            from: old.isOptional, to: new.isOptional, default: Self.defaultText(of: new))
        let oldDefault = Self.defaultText(of: old)
        let newDefault = Self.defaultText(of: new)
        // A default shown by "optional → required (default …)" is not repeated.
        if oldDefault != newDefault && !(old.isOptional && !new.isOptional) {
            lines.append("\(place): default \(oldDefault ?? "none") → \(newDefault ?? "none")")
        }
        if old.isIndexed != new.isIndexed {
            lines.append(
                "\(place): \(new.isIndexed ? "not indexed → indexed" : "indexed → not indexed")")
        }
        if old.allowsExternalBinaryDataStorage != new.allowsExternalBinaryDataStorage {
            lines.append(
                "\(place): external storage \(new.allowsExternalBinaryDataStorage ? "allowed" : "no longer allowed")"
            )
        }
        if old.preservesValueInHistoryOnDeletion != new.preservesValueInHistoryOnDeletion {
            lines.append(
                "\(place): \(new.preservesValueInHistoryOnDeletion ? "preserved" : "no longer preserved") after deletion"
            )
        }
        lines += modifier(from: old.versionHashModifier, to: new.versionHashModifier)
        return lines
    }

    /// The lines for a relationship.
    func lines(from old: Relationship, to new: Relationship) -> [String] {
        var lines: [String] = []
        let oldTarget =
            destinationNameBySource[old.destinationEntityName] ?? old.destinationEntityName
        if oldTarget != new.destinationEntityName {
            lines.append(
                "\(place): destination \(old.destinationEntityName) → \(new.destinationEntityName)")
        }
        if old.isToMany != new.isToMany {
            lines.append("\(place): \(old.isToMany ? "to-many → to-one" : "to-one → to-many")")
        }
        if old.isToMany && new.isToMany && old.isOrdered != new.isOrdered {
            lines.append(
                "\(place): \(new.isOrdered ? "unordered → ordered" : "ordered → unordered")")
        }
        lines += optionality(
            from: old.isOptional, to: new.isOptional, default: nil, isRelationship: true)
        if old.minCount != new.minCount {
            lines.append("\(place): minimum count \(old.minCount) → \(new.minCount)")
        }
        if old.maxCount != new.maxCount {
            lines.append(
                "\(place): maximum count \(Self.count(old.maxCount)) → \(Self.count(new.maxCount))")
        }
        if old.inverseName != new.inverseName {
            lines.append(
                "\(place): inverse \(old.inverseName ?? "none") → \(new.inverseName ?? "none")")
        }
        if old.deleteRule != new.deleteRule {
            lines.append(
                "\(place): delete rule \(old.deleteRule.rawValue) → \(new.deleteRule.rawValue)")
        }
        lines += modifier(from: old.versionHashModifier, to: new.versionHashModifier)
        return lines
    }

    private func optionality(
        from wasOptional: Bool, to isOptional: Bool, default text: String?,
        isRelationship: Bool = false
    ) -> [String] {
        if wasOptional && !isOptional {
            let detail = isRelationship ? "" : text.map { " (default \($0))" } ?? " (no default)"
            return ["\(place): optional → required\(detail)"]
        }
        if !wasOptional && isOptional { return ["\(place): required → optional"] }
        return []
    }

    private func modifier(from old: String?, to new: String?) -> [String] {
        guard old != new else { return [] }
        return ["\(place): version hash modifier \(Self.quoted(old)) → \(Self.quoted(new))"]
    }

    private static func quoted(_ text: String?) -> String { text.map { "\"\($0)\"" } ?? "none" }

    private static func count(_ value: Int) -> String { value == 0 ? "unbounded" : String(value) }

    /// The attribute's default as the dry run prints it: strings quoted, dates in ISO 8601,
    /// others as written in the model; `nil` when there is none.
    static func defaultText(of attribute: Attribute) -> String? {
        if attribute.type == .date, let interval = attribute.defaultDateTimeInterval {
            return Value.date(Date(timeIntervalSinceReferenceDate: interval)).description
        }
        guard let text = attribute.defaultValueString else { return nil }
        return attribute.type == .string ? "\"\(text)\"" : text
    }

    /// `(Integer 16, default 0)`, `(String, required, default "")` for a new attribute.
    static func summary(of attribute: Attribute) -> String {
        var parts = [attribute.type.description]
        if !attribute.isOptional { parts.append("required") }
        if let text = defaultText(of: attribute) { parts.append("default \(text)") }
        return "(\(parts.joined(separator: ", ")))"
    }

    /// `(to-many ordered Pet)`, `(to-one Person, required)` for a new relationship.
    static func summary(of relationship: Relationship) -> String {
        let shape =
            relationship.isToMany
            ? (relationship.isOrdered ? "to-many ordered" : "to-many") : "to-one"
        let required = relationship.isOptional ? "" : ", required"
        return "(\(shape) \(relationship.destinationEntityName)\(required))"
    }
}
