import Foundation
import ObjectGraph
import Testing

/// What a model cache carries of a model, in one canonical form, so that a model and the model
/// decoded from its cache compare equal: the parts the archive holds, spelled one way (numbers
/// as numbers, `nil` for "none" and for a renaming identifier equal to the name), and the parts
/// it does not hold (Xcode's editor flags, source locations, raw count texts) cleared.
enum ModelCacheComparison {
    /// `model` in canonical form.
    static func canonical(_ model: EntityModel) -> EntityModel {
        EntityModel(
            entities: model.entities.map(canonical).sorted { $0.name < $1.name },
            fetchTemplates: model.fetchTemplates.map(canonical).sorted { $0.name < $1.name },
            configurations: model.configurations.map {
                Configuration($0.name, entities: $0.entityNames.sorted())
            }.sorted { $0.name < $1.name },
            versionIdentifier: model.versionIdentifier ?? "")
    }

    /// Expects `decoded` to carry everything of `original` a cache holds, entity by entity,
    /// and the same version hashes.
    static func expectEquivalent(
        _ original: EntityModel, _ decoded: EntityModel, _ label: String,
        sourceLocation: Testing.SourceLocation = #_sourceLocation
    ) {
        #expect(
            decoded.entityVersionHashes == original.entityVersionHashes, "\(label): hashes",
            sourceLocation: sourceLocation)
        let left = canonical(original)
        let right = canonical(decoded)
        #expect(
            left.entities.map(\.name) == right.entities.map(\.name), "\(label): entity names",
            sourceLocation: sourceLocation)
        for (a, b) in zip(left.entities, right.entities) where a != b {
            #expect(a == b, "\(label): entity \(a.name)", sourceLocation: sourceLocation)
        }
        #expect(
            left.fetchTemplates == right.fetchTemplates, "\(label): fetch templates",
            sourceLocation: sourceLocation)
        #expect(
            left.configurations == right.configurations, "\(label): configurations",
            sourceLocation: sourceLocation)
    }

    private static func canonical(_ entity: Entity) -> Entity {
        var result = Entity(entity.name)
        result.className = entity.className == "NSManagedObject" ? nil : entity.className
        result.parentName = entity.parentName
        result.isAbstract = entity.isAbstract
        result.renamingIdentifier = renaming(entity.renamingIdentifier, entity.name)
        result.versionHashModifier = nonEmpty(entity.versionHashModifier)
        result.userInfo = canonical(entity.userInfo)
        result.uniquenessConstraints = entity.uniquenessConstraints
        result.compoundIndexes = entity.compoundIndexes
        result.fetchIndexes = entity.fetchIndexes.map { index in
            FetchIndex(
                index.name,
                elements: index.elements.map {
                    FetchIndex.Element(
                        property: $0.property, type: $0.type.lowercased(),
                        isAscending: $0.isAscending)
                })
        }
        result.attributes = entity.attributes.map(canonical).sorted { $0.name < $1.name }
        result.relationships = entity.relationships.map(canonical).sorted { $0.name < $1.name }
        result.fetchedProperties = entity.fetchedProperties.map { fetched in
            var copy = FetchedProperty(
                fetched.name, fetchRequest: canonical(fetched.fetchRequest),
                isOptional: fetched.isOptional)
            copy.fetchRequest.name = "fetchedPropertyFetchRequest"
            copy.userInfo = canonical(fetched.userInfo)
            return copy
        }.sorted { $0.name < $1.name }
        return result
    }

    private static func canonical(_ attribute: Attribute) -> Attribute {
        let type = attribute.type
        var result = Attribute(
            attribute.name, type: type, isOptional: attribute.isOptional,
            isTransient: attribute.isTransient, isIndexed: attribute.isIndexed)
        if type == .date {
            result.defaultDateTimeInterval = attribute.defaultDateTimeInterval
            result.minDateTimeInterval = attribute.minDateTimeInterval
            result.maxDateTimeInterval = attribute.maxDateTimeInterval
        } else {
            result.defaultValueString = attribute.defaultValueString.map { value($0, type) }
        }
        // Xcode compiles a minimum and maximum into validation rules for numbers and strings.
        let ruled: Set<AttributeType> = [
            .integer16, .integer32, .integer64, .decimal, .double, .float, .string,
        ]
        if ruled.contains(type) {
            result.minValueString = attribute.minValueString.map { value($0, type) }
            result.maxValueString = attribute.maxValueString.map { value($0, type) }
        }
        result.regularExpression = type == .string ? attribute.regularExpression : nil
        result.validationPredicates = attribute.validationPredicates
        result.allowsExternalBinaryDataStorage = attribute.allowsExternalBinaryDataStorage
        result.isDerived = attribute.isDerived
        if attribute.isDerived, let text = attribute.derivationExpression {
            result.derivationExpression = (try? Expression(format: text))?.description ?? text
        }
        result.valueTransformerName = nonEmpty(attribute.valueTransformerName)
        result.customClassName = type == .transformable ? attribute.customClassName : nil
        result.preservesValueInHistoryOnDeletion = attribute.preservesValueInHistoryOnDeletion
        result.isIndexedBySpotlight = attribute.isIndexedBySpotlight
        result.isStoredInExternalRecord = attribute.isStoredInExternalRecord
        result.renamingIdentifier = renaming(attribute.renamingIdentifier, attribute.name)
        result.versionHashModifier = nonEmpty(attribute.versionHashModifier)
        result.userInfo = canonical(attribute.userInfo)
        return result
    }

    private static func canonical(_ relationship: Relationship) -> Relationship {
        var result = Relationship(
            relationship.name, destination: relationship.destinationEntityName,
            toMany: relationship.maxCount != 1, inverse: relationship.inverseName,
            deleteRule: relationship.deleteRule, isOptional: relationship.isOptional,
            isOrdered: relationship.isOrdered)
        result.inverseEntityName = nil
        result.minCountString = String(relationship.minCount)
        result.maxCountString = String(relationship.maxCount)
        result.isTransient = relationship.isTransient
        result.isIndexed = relationship.isIndexed
        result.isIndexedBySpotlight = relationship.isIndexedBySpotlight
        result.isStoredInExternalRecord = relationship.isStoredInExternalRecord
        result.renamingIdentifier = renaming(relationship.renamingIdentifier, relationship.name)
        result.versionHashModifier = nonEmpty(relationship.versionHashModifier)
        result.userInfo = canonical(relationship.userInfo)
        return result
    }

    private static func canonical(_ template: FetchTemplate) -> FetchTemplate {
        var result = FetchTemplate(template.name, entity: template.entityName)
        if let text = template.predicateString {
            result.predicateString = (try? Predicate(format: text))?.description ?? text
        }
        result.fetchLimit = template.fetchLimit == 0 ? nil : template.fetchLimit
        result.fetchBatchSize = template.fetchBatchSize == 0 ? nil : template.fetchBatchSize
        result.resultType = template.resultType == 0 ? nil : template.resultType
        result.includesSubentities = template.includesSubentities
        result.includesPropertyValues = template.includesPropertyValues
        result.includesPendingChanges = template.includesPendingChanges
        result.returnsObjectsAsFaults = template.returnsObjectsAsFaults
        result.returnsDistinctResults = template.returnsDistinctResults
        return result
    }

    private static func canonical(_ info: UserInfo) -> UserInfo {
        var seen: Set<String> = []
        return UserInfo(
            info.entries.filter { seen.insert($0.key).inserted }.sorted { $0.key < $1.key })
    }

    /// A default, minimum or maximum text as the value it reads as.
    private static func value(_ text: String, _ type: AttributeType) -> String {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        switch type {
        case .integer16, .integer32, .integer64:
            return Int64(trimmed).map(String.init) ?? text
        case .double, .float, .decimal:
            guard let number = Double(trimmed) else { return text }
            return number.rounded() == number && abs(number) < 1e15
                ? String(Int64(number)) : String(number)
        case .boolean:
            switch trimmed.lowercased() {
            case "yes", "true", "1": return "YES"
            case "no", "false", "0": return "NO"
            default: return text
            }
        case .uuid:
            return UUID(uuidString: trimmed)?.uuidString ?? text
        default:
            return text
        }
    }

    private static func renaming(_ identifier: String?, _ name: String) -> String? {
        identifier == name || identifier == "" ? nil : identifier
    }

    private static func nonEmpty(_ text: String?) -> String? {
        text?.isEmpty == true ? nil : text
    }
}
