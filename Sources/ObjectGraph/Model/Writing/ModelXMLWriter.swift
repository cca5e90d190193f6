/// Turns an ``EntityModel`` into the XML of a `contents` file, exactly as Xcode writes it.
///
/// The layout follows the files Xcode saves (see `research/model-format.md`): the XML
/// declaration on the first line, 4-space indent, XML attributes in Xcode's order per element,
/// children in Xcode's order, flags written only when set (as `YES`), `<x .../>` for elements
/// without children and no newline after `</model>`. Attributes kept from a file without being
/// understood (`unknownXMLAttributes`) follow the known ones, sorted by name.
struct ModelXMLWriter {
    /// The first line of every file Xcode writes.
    static let declaration = #"<?xml version="1.0" encoding="UTF-8" standalone="yes"?>"#

    /// The model to write.
    let model: EntityModel

    /// The whole document, without a final newline.
    func document() -> String {
        var output = Self.declaration
        output += "\n"
        modelElement().render(into: &output, depth: 0)
        return output
    }

    // MARK: - Model

    private func modelElement() -> XMLOutputElement {
        var element = XMLOutputElement("model")
        let header = model.header
        if header.sourceLanguage == nil {
            // Xcode 4–7 order: the version identifier comes first (after `name`).
            element.add("name", header.name)
            element.add("userDefinedModelVersionIdentifier", model.versionIdentifier)
            addToolAttributes(of: header, to: &element)
            element.add("macOSVersion", header.macOSVersion)
            element.add("iOSVersion", header.iOSVersion)
            element.add("usedWithCloudKit", header.usedWithCloudKit)
            element.add("usedWithSwiftData", header.usedWithSwiftData)
        } else {
            // Xcode 8 and later: the version identifier comes last.
            element.add("name", header.name)
            addToolAttributes(of: header, to: &element)
            element.add("macOSVersion", header.macOSVersion)
            element.add("iOSVersion", header.iOSVersion)
            element.add("sourceLanguage", header.sourceLanguage)
            element.add("usedWithCloudKit", header.usedWithCloudKit)
            element.add("usedWithSwiftData", header.usedWithSwiftData)
            element.add("userDefinedModelVersionIdentifier", model.versionIdentifier)
        }
        element.addUnknown(header.unknownXMLAttributes)

        element.children += model.entities.map(entityElement)
        element.children += model.fetchTemplates.map(fetchRequestElement)
        element.children += model.configurations.map(configurationElement)
        element.children += model.composites.map(compositeElement)
        if let layout = model.layout {
            var elements = XMLOutputElement("elements")
            elements.children = layout.map(layoutElement)
            element.children.append(elements)
        }
        return element
    }

    private func addToolAttributes(of header: ModelHeader, to element: inout XMLOutputElement) {
        element.add("type", header.type)
        element.add("documentVersion", header.documentVersion)
        element.add("lastSavedToolsVersion", header.lastSavedToolsVersion)
        element.add("systemVersion", header.systemVersion)
        element.add("minimumToolsVersion", header.minimumToolsVersion)
    }

    // MARK: - Entities

    private func entityElement(_ entity: Entity) -> XMLOutputElement {
        var element = XMLOutputElement("entity")
        element.add("name", entity.name)
        element.add("representedClassName", entity.className)
        element.flag("isAbstract", entity.isAbstract)
        element.add("parentEntity", entity.parentName)
        element.add("elementID", entity.renamingIdentifier)
        element.add("versionHashModifier", entity.versionHashModifier)
        element.flag("syncable", entity.isSyncable)
        element.add("codeGenerationType", entity.codeGeneration.map(Self.xmlName))
        element.addUnknown(entity.unknownXMLAttributes)

        element.children += entity.attributes.map(attributeElement)
        element.children += entity.relationships.map(relationshipElement)
        element.children += entity.fetchedProperties.map(fetchedPropertyElement)
        element.children += entity.fetchIndexes.map(fetchIndexElement)
        if !entity.uniquenessConstraints.isEmpty {
            element.children.append(
                Self.listsElement(
                    "uniquenessConstraints", item: "uniquenessConstraint", entry: "constraint",
                    lists: entity.uniquenessConstraints))
        }
        if !entity.compoundIndexes.isEmpty {
            element.children.append(
                Self.listsElement(
                    "compoundIndexes", item: "compoundIndex", entry: "index",
                    lists: entity.compoundIndexes))
        }
        Self.appendUserInfo(entity.userInfo, to: &element)
        return element
    }

    private static func xmlName(_ codeGeneration: Entity.CodeGeneration) -> String {
        switch codeGeneration {
        case .classDefinition: return "class"
        case .category: return "category"
        case .other(let name): return name
        }
    }

    /// `<container><item><entry value="a"/>…</item>…</container>`.
    private static func listsElement(
        _ container: String, item: String, entry: String, lists: [[String]]
    ) -> XMLOutputElement {
        var element = XMLOutputElement(container)
        element.children = lists.map { names in
            var itemElement = XMLOutputElement(item)
            itemElement.children = names.map { name in
                var entryElement = XMLOutputElement(entry)
                entryElement.add("value", name)
                return entryElement
            }
            return itemElement
        }
        return element
    }

    // MARK: - Properties

    private func attributeElement(_ attribute: Attribute) -> XMLOutputElement {
        var element = XMLOutputElement("attribute")
        element.add("name", attribute.name)
        element.flag("optional", attribute.isOptional)
        element.flag("transient", attribute.isTransient)
        element.add("attributeType", attribute.type.xmlName)
        element.add("composite", attribute.compositeName)
        element.flag("allowsExternalBinaryDataStorage", attribute.allowsExternalBinaryDataStorage)
        element.add("minDateTimeInterval", attribute.minDateTimeInterval.map(XMLNumberText.string))
        element.flag("spotlightIndexingEnabled", attribute.isIndexedBySpotlight)
        element.flag("derived", attribute.isDerived)
        element.add("valueTransformerName", attribute.valueTransformerName)
        element.add("minValueString", attribute.minValueString)
        element.flag("storedInTruthFile", attribute.isStoredInExternalRecord)
        element.add("derivationExpression", attribute.derivationExpression)
        element.add("maxDateTimeInterval", attribute.maxDateTimeInterval.map(XMLNumberText.string))
        element.add("maxValueString", attribute.maxValueString)
        element.add("regularExpressionString", attribute.regularExpression)
        element.add(
            "defaultDateTimeInterval", attribute.defaultDateTimeInterval.map(XMLNumberText.string))
        element.add("defaultValueString", attribute.defaultValueString)
        element.add("usesScalarValueType", attribute.usesScalarValueType.map { $0 ? "YES" : "NO" })
        element.add("customClassName", attribute.customClassName)
        element.flag("preserveAfterDeletion", attribute.preservesValueInHistoryOnDeletion)
        element.flag("indexed", attribute.isIndexed)
        element.add("elementID", attribute.renamingIdentifier)
        element.add("versionHashModifier", attribute.versionHashModifier)
        element.flag("syncable", attribute.isSyncable)
        element.addUnknown(attribute.unknownXMLAttributes)
        Self.appendUserInfo(attribute.userInfo, to: &element)
        return element
    }

    private func relationshipElement(_ relationship: Relationship) -> XMLOutputElement {
        var element = XMLOutputElement("relationship")
        element.add("name", relationship.name)
        element.flag("optional", relationship.isOptional)
        element.flag("transient", relationship.isTransient)
        element.flag("toMany", relationship.isToMany)
        element.add("minCount", relationship.minCountString)
        element.add("maxCount", relationship.maxCountString)
        element.add(
            "deletionRule", relationship.unknownDeleteRule ?? relationship.deleteRule.rawValue)
        element.flag("ordered", relationship.isOrdered)
        element.add("destinationEntity", relationship.destinationEntityName)
        element.add("inverseName", relationship.inverseName)
        element.add("inverseEntity", relationship.inverseEntityName)
        element.flag("spotlightIndexingEnabled", relationship.isIndexedBySpotlight)
        element.flag("storedInTruthFile", relationship.isStoredInExternalRecord)
        element.add("elementID", relationship.renamingIdentifier)
        element.add("versionHashModifier", relationship.versionHashModifier)
        element.flag("indexed", relationship.isIndexed)
        element.flag("syncable", relationship.isSyncable)
        element.addUnknown(relationship.unknownXMLAttributes)
        Self.appendUserInfo(relationship.userInfo, to: &element)
        return element
    }

    private func fetchedPropertyElement(_ property: FetchedProperty) -> XMLOutputElement {
        var element = XMLOutputElement("fetchedProperty")
        element.add("name", property.name)
        element.flag("optional", property.isOptional)
        element.flag("syncable", property.isSyncable)
        element.addUnknown(property.unknownXMLAttributes)
        element.children.append(fetchRequestElement(property.fetchRequest))
        Self.appendUserInfo(property.userInfo, to: &element)
        return element
    }

    private func fetchIndexElement(_ index: FetchIndex) -> XMLOutputElement {
        var element = XMLOutputElement("fetchIndex")
        element.add("name", index.name)
        element.children = index.elements.map { indexed in
            var child = XMLOutputElement("fetchIndexElement")
            child.add("property", indexed.property)
            child.add("type", indexed.type)
            child.add("order", indexed.isAscending ? "ascending" : "descending")
            return child
        }
        return element
    }

    private static func appendUserInfo(_ userInfo: UserInfo, to element: inout XMLOutputElement) {
        guard !userInfo.isEmpty else { return }
        var info = XMLOutputElement("userInfo")
        info.children = userInfo.entries.map { entry in
            var child = XMLOutputElement("entry")
            child.add("key", entry.key)
            child.add("value", entry.value)
            return child
        }
        element.children.append(info)
    }

    // MARK: - Model-level elements

    private func fetchRequestElement(_ template: FetchTemplate) -> XMLOutputElement {
        var element = XMLOutputElement("fetchRequest")
        element.add("name", template.name)
        element.add("entity", template.entityName)
        element.add("predicateString", template.predicateString)
        element.add("fetchLimit", template.fetchLimit.map(String.init))
        element.add("fetchBatchSize", template.fetchBatchSize.map(String.init))
        element.add("resultType", template.resultType.map(String.init))
        element.flag("includeSubentities", template.includesSubentities)
        element.flag("includePropertyValues", template.includesPropertyValues)
        element.flag("includesPendingChanges", template.includesPendingChanges)
        element.flag("returnObjectsAsFaults", template.returnsObjectsAsFaults)
        element.flag("returnDistinctResults", template.returnsDistinctResults)
        element.addUnknown(template.unknownXMLAttributes)
        return element
    }

    private func configurationElement(_ configuration: Configuration) -> XMLOutputElement {
        var element = XMLOutputElement("configuration")
        element.add("name", configuration.name)
        element.flag("usedWithCloudKit", configuration.isUsedWithCloudKit)
        element.children = configuration.entityNames.map { name in
            var member = XMLOutputElement("memberEntity")
            member.add("name", name)
            return member
        }
        return element
    }

    private func compositeElement(_ composite: Composite) -> XMLOutputElement {
        var element = XMLOutputElement("composite")
        element.add("name", composite.name)
        element.children = composite.attributes.map(attributeElement)
        return element
    }

    private func layoutElement(_ layout: LayoutElement) -> XMLOutputElement {
        var element = XMLOutputElement("element")
        element.add("name", layout.name)
        element.add("positionX", layout.positionX)
        element.add("positionY", layout.positionY)
        element.add("width", layout.width)
        element.add("height", layout.height)
        return element
    }
}
