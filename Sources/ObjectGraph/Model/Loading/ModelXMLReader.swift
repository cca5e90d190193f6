import Foundation

/// Turns the XML of a `contents` file into an ``EntityModel``, reading every element and
/// attribute Xcode writes. Unknown attributes are kept (in `unknownXMLAttributes`) and unknown
/// elements skipped, each with a warning; nothing in a well-formed file is fatal except a root
/// element that is not `<model>`.
struct ModelXMLReader {
    private let file: String?
    private var diagnostics: [Diagnostic] = []

    init(file: String?) {
        self.file = file
    }

    /// Reads a model from `data`.
    static func read(_ data: Data, file: String?) throws -> EntityModel {
        let root = try XMLTreeParser.parse(data, file: file)
        var reader = ModelXMLReader(file: file)
        var model = try reader.model(from: root)
        model.loadDiagnostics = reader.diagnostics
        model.sourceFile = file
        return model
    }

    // MARK: - Elements

    private mutating func model(from root: XMLElementNode) throws -> EntityModel {
        guard root.name == "model" else {
            throw ModelError(
                .invalidStructure,
                "the root element is <\(root.name)>, but an Xcode model's is <model>",
                location: root.location)
        }
        var attributes = AttributeReader(root, known: Self.modelAttributes)
        var header = ModelHeader.empty
        header.type = attributes.string("type")
        header.documentVersion = attributes.string("documentVersion")
        header.lastSavedToolsVersion = attributes.string("lastSavedToolsVersion")
        header.systemVersion = attributes.string("systemVersion")
        header.minimumToolsVersion = attributes.string("minimumToolsVersion")
        header.sourceLanguage = attributes.string("sourceLanguage")
        header.usedWithCloudKit = attributes.string("usedWithCloudKit")
        header.usedWithSwiftData = attributes.string("usedWithSwiftData")
        header.name = attributes.string("name")
        header.macOSVersion = attributes.string("macOSVersion")
        header.iOSVersion = attributes.string("iOSVersion")
        let versionIdentifier = attributes.string("userDefinedModelVersionIdentifier")
        header.unknownXMLAttributes = finish(&attributes, element: root)

        var entities: [Entity] = []
        var templates: [FetchTemplate] = []
        var configurations: [Configuration] = []
        var composites: [Composite] = []
        var layout: [LayoutElement]?
        for child in root.children {
            switch child.name {
            case "entity": entities.append(entity(from: child))
            case "fetchRequest": templates.append(fetchTemplate(from: child, entity: nil))
            case "configuration": configurations.append(configuration(from: child))
            case "composite": composites.append(composite(from: child))
            case "elements": layout = (layout ?? []) + layoutElements(from: child)
            default: unknownElement(child, in: "model")
            }
        }
        return EntityModel(
            entities: entities, fetchTemplates: templates, configurations: configurations,
            composites: composites, versionIdentifier: versionIdentifier, header: header,
            layout: layout)
    }

    private mutating func entity(from node: XMLElementNode) -> Entity {
        var attributes = AttributeReader(node, known: Self.entityAttributes)
        let name = requiredName(&attributes, node: node, what: "entity")
        var entity = Entity(name)
        entity.location = node.location
        entity.className = attributes.string("representedClassName")
        entity.parentName = attributes.string("parentEntity")
        entity.isAbstract = flag(&attributes, "isAbstract", node: node)
        entity.renamingIdentifier = attributes.string("elementID")
        entity.versionHashModifier = attributes.string("versionHashModifier")
        entity.isSyncable = flag(&attributes, "syncable", node: node)
        switch attributes.string("codeGenerationType") {
        case nil: entity.codeGeneration = nil
        case "class": entity.codeGeneration = .classDefinition
        case "category": entity.codeGeneration = .category
        case let other?: entity.codeGeneration = .other(other)
        }
        entity.unknownXMLAttributes = finish(&attributes, element: node)

        for child in node.children {
            switch child.name {
            case "attribute": entity.attributes.append(attribute(from: child, entity: name))
            case "relationship":
                entity.relationships.append(relationship(from: child, entity: name))
            case "fetchedProperty":
                entity.fetchedProperties.append(fetchedProperty(from: child, entity: name))
            case "fetchIndex": entity.fetchIndexes.append(fetchIndex(from: child, entity: name))
            case "uniquenessConstraints":
                entity.uniquenessConstraints += valueLists(
                    from: child, list: "uniquenessConstraint", item: "constraint", entity: name)
            case "compoundIndexes":
                entity.compoundIndexes += valueLists(
                    from: child, list: "compoundIndex", item: "index", entity: name)
            case "userInfo": entity.userInfo = userInfo(from: child, entity: name)
            default: unknownElement(child, in: "entity", entity: name)
            }
        }
        return entity
    }

    private mutating func attribute(from node: XMLElementNode, entity: String) -> Attribute {
        var attributes = AttributeReader(node, known: Self.attributeAttributes)
        let name = requiredName(&attributes, node: node, what: "attribute", entity: entity)
        var attribute = Attribute(
            name, type: AttributeType(xmlName: attributes.string("attributeType")))
        attribute.location = node.location
        attribute.isOptional = flag(&attributes, "optional", node: node)
        attribute.isTransient = flag(&attributes, "transient", node: node)
        attribute.isIndexed = flag(&attributes, "indexed", node: node)
        attribute.defaultValueString = attributes.string("defaultValueString")
        attribute.defaultDateTimeInterval = double(&attributes, "defaultDateTimeInterval", node)
        if let scalar = attributes.string("usesScalarValueType") {
            attribute.usesScalarValueType = readFlag(
                scalar, name: "usesScalarValueType", node: node)
        }
        attribute.minValueString = attributes.string("minValueString")
        attribute.maxValueString = attributes.string("maxValueString")
        attribute.minDateTimeInterval = double(&attributes, "minDateTimeInterval", node)
        attribute.maxDateTimeInterval = double(&attributes, "maxDateTimeInterval", node)
        attribute.regularExpression = attributes.string("regularExpressionString")
        attribute.allowsExternalBinaryDataStorage = flag(
            &attributes, "allowsExternalBinaryDataStorage", node: node)
        attribute.isDerived = flag(&attributes, "derived", node: node)
        attribute.derivationExpression = attributes.string("derivationExpression")
        attribute.valueTransformerName = attributes.string("valueTransformerName")
        attribute.customClassName = attributes.string("customClassName")
        attribute.preservesValueInHistoryOnDeletion = flag(
            &attributes, "preserveAfterDeletion", node: node)
        attribute.isIndexedBySpotlight = flag(&attributes, "spotlightIndexingEnabled", node: node)
        attribute.isStoredInExternalRecord = flag(&attributes, "storedInTruthFile", node: node)
        attribute.renamingIdentifier = attributes.string("elementID")
        attribute.versionHashModifier = attributes.string("versionHashModifier")
        attribute.isSyncable = flag(&attributes, "syncable", node: node)
        attribute.compositeName = attributes.string("composite")
        attribute.unknownXMLAttributes = finish(&attributes, element: node, entity: entity)
        for child in node.children {
            if child.name == "userInfo" {
                attribute.userInfo = userInfo(from: child, entity: entity)
            } else {
                unknownElement(child, in: "attribute", entity: entity, property: name)
            }
        }
        return attribute
    }

    private mutating func relationship(from node: XMLElementNode, entity: String) -> Relationship {
        var attributes = AttributeReader(node, known: Self.relationshipAttributes)
        let name = requiredName(&attributes, node: node, what: "relationship", entity: entity)
        let destination = attributes.string("destinationEntity")
        if destination == nil {
            diagnostics.append(
                Diagnostic(
                    .error, "missing-destination",
                    "relationship '\(name)' of '\(entity)' has no destinationEntity",
                    location: node.location, entity: entity, property: name))
        }
        var relationship = Relationship(name, destination: destination ?? "")
        relationship.location = node.location
        relationship.inverseName = attributes.string("inverseName")
        relationship.inverseEntityName = attributes.string("inverseEntity")
        relationship.isToMany = flag(&attributes, "toMany", node: node)
        relationship.isOrdered = flag(&attributes, "ordered", node: node)
        relationship.minCountString = attributes.string("minCount")
        relationship.maxCountString = attributes.string("maxCount")
        let rule = attributes.string("deletionRule")
        switch rule {
        case nil:
            relationship.deleteRule = .nullify
        case let text?:
            if let known = DeleteRule(rawValue: text) {
                relationship.deleteRule = known
            } else {
                relationship.deleteRule = .nullify
                relationship.unknownDeleteRule = text
                diagnostics.append(
                    Diagnostic(
                        .warning, "unknown-delete-rule",
                        "unknown deletionRule '\(text)' on '\(entity).\(name)'; read as Nullify",
                        location: node.location, entity: entity, property: name))
            }
        }
        relationship.isOptional = flag(&attributes, "optional", node: node)
        relationship.isTransient = flag(&attributes, "transient", node: node)
        relationship.isIndexed = flag(&attributes, "indexed", node: node)
        relationship.isStoredInExternalRecord = flag(&attributes, "storedInTruthFile", node: node)
        relationship.isIndexedBySpotlight = flag(
            &attributes, "spotlightIndexingEnabled", node: node)
        relationship.renamingIdentifier = attributes.string("elementID")
        relationship.versionHashModifier = attributes.string("versionHashModifier")
        relationship.isSyncable = flag(&attributes, "syncable", node: node)
        relationship.unknownXMLAttributes = finish(&attributes, element: node, entity: entity)
        for child in node.children {
            if child.name == "userInfo" {
                relationship.userInfo = userInfo(from: child, entity: entity)
            } else {
                unknownElement(child, in: "relationship", entity: entity, property: name)
            }
        }
        return relationship
    }

    private mutating func fetchedProperty(
        from node: XMLElementNode, entity: String
    ) -> FetchedProperty {
        var attributes = AttributeReader(node, known: Self.fetchedPropertyAttributes)
        let name = requiredName(&attributes, node: node, what: "fetched property", entity: entity)
        var request: FetchTemplate?
        var info = UserInfo()
        for child in node.children {
            switch child.name {
            case "fetchRequest" where request == nil:
                request = fetchTemplate(from: child, entity: entity)
            case "userInfo": info = userInfo(from: child, entity: entity)
            default: unknownElement(child, in: "fetchedProperty", entity: entity, property: name)
            }
        }
        if request == nil {
            diagnostics.append(
                Diagnostic(
                    .error, "fetched-property-without-request",
                    "fetched property '\(entity).\(name)' has no <fetchRequest>",
                    location: node.location, entity: entity, property: name))
        }
        var property = FetchedProperty(
            name, fetchRequest: request ?? FetchTemplate("fetchedPropertyFetchRequest", entity: ""))
        property.location = node.location
        property.isOptional = flag(&attributes, "optional", node: node)
        property.isSyncable = flag(&attributes, "syncable", node: node)
        property.userInfo = info
        property.unknownXMLAttributes = finish(&attributes, element: node, entity: entity)
        return property
    }

    private mutating func fetchTemplate(from node: XMLElementNode, entity: String?) -> FetchTemplate
    {
        var attributes = AttributeReader(node, known: Self.fetchRequestAttributes)
        let name = requiredName(&attributes, node: node, what: "fetch request", entity: entity)
        var template = FetchTemplate(name, entity: attributes.string("entity") ?? "")
        template.location = node.location
        template.predicateString = attributes.string("predicateString")
        template.fetchLimit = integer(&attributes, "fetchLimit", node)
        template.fetchBatchSize = integer(&attributes, "fetchBatchSize", node)
        template.resultType = integer(&attributes, "resultType", node)
        template.includesSubentities = flag(&attributes, "includeSubentities", node: node)
        template.includesPropertyValues = flag(&attributes, "includePropertyValues", node: node)
        template.includesPendingChanges = flag(&attributes, "includesPendingChanges", node: node)
        template.returnsObjectsAsFaults = flag(&attributes, "returnObjectsAsFaults", node: node)
        template.returnsDistinctResults = flag(&attributes, "returnDistinctResults", node: node)
        template.unknownXMLAttributes = finish(&attributes, element: node, entity: entity)
        for child in node.children {
            unknownElement(child, in: "fetchRequest", entity: entity)
        }
        return template
    }

    private mutating func fetchIndex(from node: XMLElementNode, entity: String) -> FetchIndex {
        var attributes = AttributeReader(node, known: ["name"])
        let name = requiredName(&attributes, node: node, what: "fetch index", entity: entity)
        _ = finish(&attributes, element: node, entity: entity)
        var index = FetchIndex(name, elements: [])
        index.location = node.location
        for child in node.children {
            guard child.name == "fetchIndexElement" else {
                unknownElement(child, in: "fetchIndex", entity: entity)
                continue
            }
            var elementAttributes = AttributeReader(child, known: ["property", "type", "order"])
            let property = elementAttributes.string("property") ?? ""
            let type = elementAttributes.string("type") ?? "Binary"
            let order = elementAttributes.string("order")
            if let order, order != "ascending", order != "descending" {
                diagnostics.append(
                    Diagnostic(
                        .warning, "unknown-index-order",
                        "fetch index order '\(order)' is neither ascending nor descending",
                        location: child.location, entity: entity))
            }
            _ = finish(&elementAttributes, element: child, entity: entity)
            index.elements.append(
                FetchIndex.Element(
                    property: property, type: type, isAscending: order != "descending"))
        }
        return index
    }

    private mutating func valueLists(
        from node: XMLElementNode, list: String, item: String, entity: String
    ) -> [[String]] {
        var result: [[String]] = []
        for listNode in node.children {
            guard listNode.name == list else {
                unknownElement(listNode, in: node.name, entity: entity)
                continue
            }
            var values: [String] = []
            for itemNode in listNode.children {
                guard itemNode.name == item, let value = itemNode.attribute("value") else {
                    unknownElement(itemNode, in: list, entity: entity)
                    continue
                }
                values.append(value)
            }
            result.append(values)
        }
        return result
    }

    private mutating func userInfo(from node: XMLElementNode, entity: String?) -> UserInfo {
        var info = UserInfo()
        for child in node.children {
            guard child.name == "entry" else {
                unknownElement(child, in: "userInfo", entity: entity)
                continue
            }
            info.entries.append(
                UserInfo.Entry(
                    key: child.attribute("key") ?? "", value: child.attribute("value") ?? ""))
        }
        return info
    }

    private mutating func configuration(from node: XMLElementNode) -> Configuration {
        var attributes = AttributeReader(node, known: ["name", "usedWithCloudKit"])
        let name = requiredName(&attributes, node: node, what: "configuration")
        var configuration = Configuration(
            name, entities: [],
            isUsedWithCloudKit: flag(&attributes, "usedWithCloudKit", node: node))
        configuration.location = node.location
        _ = finish(&attributes, element: node)
        for child in node.children {
            if child.name == "memberEntity", let member = child.attribute("name") {
                configuration.entityNames.append(member)
            } else {
                unknownElement(child, in: "configuration")
            }
        }
        return configuration
    }

    private mutating func composite(from node: XMLElementNode) -> Composite {
        var attributes = AttributeReader(node, known: ["name"])
        let name = requiredName(&attributes, node: node, what: "composite")
        _ = finish(&attributes, element: node)
        var composite = Composite(name, attributes: [])
        composite.location = node.location
        for child in node.children {
            if child.name == "attribute" {
                composite.attributes.append(attribute(from: child, entity: name))
            } else {
                unknownElement(child, in: "composite")
            }
        }
        return composite
    }

    private mutating func layoutElements(from node: XMLElementNode) -> [LayoutElement] {
        node.children.compactMap { child in
            guard child.name == "element" else {
                unknownElement(child, in: "elements")
                return nil
            }
            return LayoutElement(
                name: child.attribute("name") ?? "", positionX: child.attribute("positionX") ?? "",
                positionY: child.attribute("positionY") ?? "",
                width: child.attribute("width") ?? "",
                height: child.attribute("height") ?? "")
        }
    }

    // MARK: - Attribute values

    private mutating func requiredName(
        _ attributes: inout AttributeReader, node: XMLElementNode, what: String,
        entity: String? = nil
    ) -> String {
        if let name = attributes.string("name") { return name }
        diagnostics.append(
            Diagnostic(
                .error, "missing-name", "\(what) without a name", location: node.location,
                entity: entity))
        return ""
    }

    /// Reads a flag that is written only when true (`YES`); absent means false.
    private mutating func flag(
        _ attributes: inout AttributeReader, _ name: String, node: XMLElementNode
    ) -> Bool {
        guard let text = attributes.string(name) else { return false }
        return readFlag(text, name: name, node: node)
    }

    private mutating func readFlag(_ text: String, name: String, node: XMLElementNode) -> Bool {
        switch text {
        case "YES", "true", "yes", "1": return true
        case "NO", "false", "no", "0": return false
        default:
            diagnostics.append(
                Diagnostic(
                    .warning, "unreadable-flag",
                    "\(name)=\"\(text)\" on <\(node.name)> is not YES or NO; read as NO",
                    location: node.location))
            return false
        }
    }

    private mutating func double(
        _ attributes: inout AttributeReader, _ name: String, _ node: XMLElementNode
    ) -> Double? {
        guard let text = attributes.string(name) else { return nil }
        if let value = Double(text.trimmingCharacters(in: .whitespaces)), value.isFinite {
            return value
        }
        diagnostics.append(
            Diagnostic(
                .warning, "unreadable-number",
                "\(name)=\"\(text)\" on <\(node.name)> is not a number; ignored",
                location: node.location))
        return nil
    }

    private mutating func integer(
        _ attributes: inout AttributeReader, _ name: String, _ node: XMLElementNode
    ) -> Int? {
        guard let text = attributes.string(name) else { return nil }
        if let value = Int(text.trimmingCharacters(in: .whitespaces)) { return value }
        diagnostics.append(
            Diagnostic(
                .warning, "unreadable-number",
                "\(name)=\"\(text)\" on <\(node.name)> is not an integer; ignored",
                location: node.location))
        return nil
    }

    /// Returns the attributes nobody read, warning about each.
    private mutating func finish(
        _ attributes: inout AttributeReader, element: XMLElementNode, entity: String? = nil
    ) -> [String: String] {
        let unknown = attributes.unread()
        for (name, _) in unknown.sorted(by: { $0.key < $1.key }) {
            diagnostics.append(
                Diagnostic(
                    .warning, "unknown-attribute",
                    "unknown attribute '\(name)' on <\(element.name)> kept as is",
                    location: element.location, entity: entity))
        }
        return unknown
    }

    private mutating func unknownElement(
        _ node: XMLElementNode, in parent: String, entity: String? = nil, property: String? = nil
    ) {
        diagnostics.append(
            Diagnostic(
                .warning, "unknown-element",
                "unknown element <\(node.name)> in <\(parent)> ignored",
                location: node.location, entity: entity, property: property))
    }

    // MARK: - Vocabularies

    static let modelAttributes: Set<String> = [
        "type", "documentVersion", "lastSavedToolsVersion", "systemVersion",
        "minimumToolsVersion", "sourceLanguage", "usedWithCloudKit", "usedWithSwiftData", "name",
        "macOSVersion", "iOSVersion", "userDefinedModelVersionIdentifier",
    ]
    static let entityAttributes: Set<String> = [
        "name", "representedClassName", "parentEntity", "isAbstract", "elementID",
        "versionHashModifier", "syncable", "codeGenerationType",
    ]
    static let attributeAttributes: Set<String> = [
        "name", "optional", "transient", "attributeType", "allowsExternalBinaryDataStorage",
        "minDateTimeInterval", "spotlightIndexingEnabled", "derived", "valueTransformerName",
        "minValueString", "storedInTruthFile", "derivationExpression", "maxDateTimeInterval",
        "maxValueString", "regularExpressionString", "defaultDateTimeInterval",
        "defaultValueString", "usesScalarValueType", "customClassName", "preserveAfterDeletion",
        "indexed", "elementID", "versionHashModifier", "syncable", "composite",
    ]
    static let relationshipAttributes: Set<String> = [
        "name", "optional", "transient", "toMany", "minCount", "maxCount", "deletionRule",
        "ordered", "destinationEntity", "inverseName", "inverseEntity", "elementID", "indexed",
        "syncable", "storedInTruthFile", "spotlightIndexingEnabled", "versionHashModifier",
    ]
    static let fetchedPropertyAttributes: Set<String> = ["name", "optional", "syncable"]
    static let fetchRequestAttributes: Set<String> = [
        "name", "entity", "predicateString", "fetchLimit", "fetchBatchSize", "resultType",
        "includeSubentities", "includePropertyValues", "includesPendingChanges",
        "returnObjectsAsFaults", "returnDistinctResults",
    ]
}

/// Reads an element's attributes by name and remembers which were read, so the rest can be
/// kept and reported as unknown.
struct AttributeReader {
    private let values: [String: String]
    private let known: Set<String>
    private var read: Set<String> = []

    init(_ node: XMLElementNode, known: Set<String>) {
        var values: [String: String] = [:]
        for attribute in node.attributes where values[attribute.name] == nil {
            values[attribute.name] = attribute.value
        }
        self.values = values
        self.known = known
    }

    /// The value of `name`, marking it read.
    mutating func string(_ name: String) -> String? {
        read.insert(name)
        return values[name]
    }

    /// The attributes not read and not in the known vocabulary.
    func unread() -> [String: String] {
        values.filter { !read.contains($0.key) && !known.contains($0.key) }
    }
}
