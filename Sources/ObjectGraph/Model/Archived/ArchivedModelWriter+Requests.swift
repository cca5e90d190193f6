import Foundation
import KeyedArchive

/// Validation rules, fetch request templates and the requests of fetched properties.
extension ArchivedModelWriter {
    /// The attribute's validation predicates and warnings: the compiled minimum, maximum and
    /// regular expression (warnings Core Data's error codes), then its own predicates (warnings
    /// their text).
    mutating func validationRules(_ attribute: Attribute)
        -> [(predicate: PropertyListObject, warning: PropertyListObject)]
    {
        var result: [(predicate: PropertyListObject, warning: PropertyListObject)] = []
        for rule in ArchivedModelRules.rules(of: attribute) {
            result.append((predicate(rule.predicate), table.value(.integer(rule.kind.rawValue))))
        }
        for rule in attribute.validationPredicates {
            result.append((predicate(rule.predicate), table.string(rule.warning)))
        }
        return result
    }

    /// `NSFetchRequestTemplates`: a dictionary of fetch requests by name, `nil` when none.
    mutating func fetchTemplates() -> PropertyListObject {
        guard !model.fetchTemplates.isEmpty else { return ArchiveObjectTable.null }
        var entries: [(key: String, value: PropertyListObject)] = []
        var seen: Set<String> = []
        for template in model.fetchTemplates where seen.insert(template.name).inserted {
            entries.append((template.name, fetchRequest(template)))
        }
        return table.dictionary(entries)
    }

    /// An `NSFetchRequest`: its entity, predicate (a predicate text that does not parse is left
    /// out), limit, batch size, result type and flags (0x1 distinct results, 0x2 subentities,
    /// 0x4 property values, 0x8 objects as faults, 0x10 pending changes).
    mutating func fetchRequest(_ template: FetchTemplate) -> PropertyListObject {
        var flags: Int64 = 0
        if template.returnsDistinctResults { flags |= 0x1 }
        if template.includesSubentities { flags |= 0x2 }
        if template.includesPropertyValues { flags |= 0x4 }
        if template.returnsObjectsAsFaults { flags |= 0x8 }
        if template.includesPendingChanges { flags |= 0x10 }
        let parsed = template.predicateString.flatMap { try? Predicate(format: $0) }
        let int32 = Int(Int32.min)...Int(Int32.max)
        return table.object(
            "NSFetchRequest",
            [
                "NSEntity": entityReferences[template.entityName]
                    ?? table.string(template.entityName),
                "NSPredicate": parsed.map { predicate($0) } ?? ArchiveObjectTable.null,
                "NSSortDescriptors": ArchiveObjectTable.null,
                "NSFetchLimit": .integer(Int64(int32.clamped(template.fetchLimit ?? 0))),
                "NSBatchSize": .integer(Int64(int32.clamped(template.fetchBatchSize ?? 0))),
                "NSRelationshipKeyPathsForPrefetching": ArchiveObjectTable.null,
                "NSResultType": .integer(Int64(int32.clamped(template.resultType ?? 0))),
                "NSAllocationType": .integer(0),
                "NSHasFetchRequestFlags": .bool(true),
                "NSFetchRequestFlags": .integer(flags),
            ])
    }
}
