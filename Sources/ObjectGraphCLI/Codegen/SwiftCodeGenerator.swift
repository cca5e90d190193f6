import ObjectGraph

/// Writes Swift classes for a model's entities, as Xcode does for Core Data: each entity's
/// code-generation setting decides what is written ("Class Definition": the whole class;
/// "Category/Extension": an extension with the properties, for a class the user writes;
/// "Manual/None": nothing, unless every entity is asked for).
///
/// ```swift
/// var generator = SwiftCodeGenerator(model: model, modelName: "School")
/// for file in generator.files() { … file.name, file.text … }
/// generator.warnings   // names escaped or renamed, types assumed Codable
/// ```
struct SwiftCodeGenerator {
    /// One generated file.
    struct File: Equatable {
        /// The file's name (`Student+ObjectGraph.swift`).
        let name: String
        /// The Swift source.
        let text: String
    }

    /// What the generated declarations are.
    enum Access: String {
        case `public`, `internal`

        /// The modifier before a declaration (`public `, or nothing).
        var modifier: String { self == .public ? "public " : "" }
    }

    /// How an entity is generated.
    enum Mode {
        case classDefinition, category
    }

    let model: EntityModel
    /// The model's name (the registration enum is `<name>ModelClasses`).
    let modelName: String
    let access: Access
    /// Whether Manual/None entities get classes too.
    let all: Bool
    /// Warnings, one line each, naming entity and property.
    private(set) var warnings: [String] = []
    /// Declarations the user writes: the classes of Category/Extension entities (`class
    /// Order: ManagedObject {}`), one per line.
    private(set) var userClasses: [String] = []
    /// Types of transformable attributes assumed to be the user's `Codable & Sendable` types.
    var assumedCodableTypes: Set<String> = []

    private var classNames: [String: String] = [:]
    private var modes: [String: Mode] = [:]
    /// Per entity: property name in the model → Swift name.
    private var propertyNames: [String: [String: String]] = [:]
    /// Names the model's classes take that generated code also refers to (qualified then).
    private var shadowed: Set<String> = []

    init(model: EntityModel, modelName: String, access: Access = .public, all: Bool = false) {
        self.model = model
        self.modelName = SwiftNames.identifier(modelName)
        self.access = access
        self.all = all
        assignNames()
    }

    /// Every file: one per generated entity, then the model's registration.
    mutating func files() -> [File] {
        var files: [File] = []
        for entity in model.entities {
            guard let mode = modes[entity.name], let name = classNames[entity.name] else {
                continue
            }
            files.append(File(name: "\(name)+ObjectGraph.swift", text: source(entity, mode)))
        }
        if !files.isEmpty {
            files.append(File(name: "\(modelName)ModelClasses.swift", text: registration()))
        }
        return files
    }

    // MARK: - Names

    private mutating func assignNames() {
        var taken: Set<String> = []
        for entity in model.entities {
            let mode: Mode?
            switch entity.codeGeneration {
            case .classDefinition: mode = .classDefinition
            case .category: mode = .category
            default: mode = all ? .classDefinition : nil
            }
            var name = Self.className(entity)
            if taken.contains(name) {
                let renamed = uniqueName(SwiftNames.identifier(entity.name), taken: taken)
                warn(
                    "\(entity.name): class name '\(name)' is taken by another entity; "
                        + "named '\(renamed)'")
                name = renamed
            }
            taken.insert(name)
            classNames[entity.name] = name
            if let mode { modes[entity.name] = mode }
        }
        let referenced: Set<String> = [
            "ManagedObject", "TypedProperty", "TypedAttribute", "RelatedSet", "RelatedList",
            "Value",
            "KeyPathNameTable",
            "ManagedObjectClasses", "GeneratedManagedObject", "KeyPathNaming", "String", "Int16",
            "Int32", "Int64", "Double", "Float", "Bool", "Date", "Data", "UUID", "URL", "Decimal",
            "ObjectID", "AnyKeyPath", "Int", "AbsentValues",
        ]
        shadowed = referenced.intersection(taken)
        for entity in model.entities where modes[entity.name] != nil {
            var names: [String: String] = [:]
            var used: Set<String> = []
            for name in model.lineage(of: entity).reversed().flatMap(Self.propertyNamesOf) {
                guard names[name] == nil else { continue }
                let swift = propertyName(name, entity: entity.name, used: used)
                names[name] = swift
                used.insert(swift)
            }
            propertyNames[entity.name] = names
        }
    }

    private static func propertyNamesOf(_ entity: Entity) -> [String] {
        entity.attributes.map(\.name) + entity.relationships.map(\.name)
    }

    /// The class of `entity`: its class name without module (`School.Student`, `.Student`),
    /// unless that is none, `NSManagedObject` or no identifier; then the entity's name.
    static func className(_ entity: Entity) -> String {
        let bare = (entity.className ?? "").split(separator: ".").last.map(String.init) ?? ""
        let usable = !bare.isEmpty && bare != "NSManagedObject" && bare != "ManagedObject"
        return SwiftNames.identifier(usable ? bare : entity.name)
    }

    private func uniqueName(_ base: String, taken: Set<String>) -> String {
        var candidate = base
        var counter = 2
        while taken.contains(candidate) {
            candidate = "\(base)\(counter)"
            counter += 1
        }
        return candidate
    }

    /// The Swift name of the property `name`: escaped when it is a keyword, renamed with a
    /// `Property` suffix when it would clash with a `ManagedObject` member (warned either way).
    private mutating func propertyName(_ name: String, entity: String, used: Set<String>)
        -> String
    {
        var swift = SwiftNames.identifier(name)
        if swift != name {
            warn("\(entity).\(name): not a Swift identifier; named '\(swift)'")
        }
        if SwiftNames.managedObjectMembers.contains(swift) || SwiftNames.unescapable.contains(swift)
        {
            let renamed = uniqueName(swift + "Property", taken: used)
            warn("\(entity).\(name): clashes with a ManagedObject member; named '\(renamed)'")
            swift = renamed
        } else if SwiftNames.keywords.contains(swift) {
            warn("\(entity).\(name): a Swift keyword; written `\(swift)`")
            swift = "`\(swift)`"
        }
        if used.contains(swift) {
            let renamed = uniqueName(swift + "_", taken: used)
            warn("\(entity).\(name): another property is named '\(swift)'; named '\(renamed)'")
            swift = renamed
        }
        return swift
    }

    /// A name the generated code refers to, module-qualified when a class of the model takes it.
    func ref(_ name: String, in module: String = "ObjectGraph") -> String {
        shadowed.contains(name) ? "\(module).\(name)" : name
    }

    mutating func warn(_ message: String) {
        warnings.append(message)
    }
}

// MARK: - Source

extension SwiftCodeGenerator {
    /// The file of one entity.
    private mutating func source(_ entity: Entity, _ mode: Mode) -> String {
        let name = classNames[entity.name] ?? entity.name
        let parent = entity.parentName.flatMap { model.entity(named: $0) }
        let isTop = parent.map { modes[$0.name] == nil } ?? true
        let table = "\(name)Properties"
        var lines = header("the entity \"\(entity.name)\" of the model \"\(modelName)\"")
        let conformances = "\(ref("GeneratedManagedObject")), \(ref("KeyPathNaming"))"
        let members = classMembers(entity, mode, table: table, isTop: isTop)
        switch mode {
        case .classDefinition:
            let base = parent.flatMap { classNames[$0.name] } ?? ref("ManagedObject")
            lines.append("/// The entity \"\(entity.name)\".")
            lines.append(
                "\(access.modifier)class \(name): \(base)\(isTop ? ", " + conformances : "") {")
            lines += members
            lines.append("}")
        case .category:
            let base = parent.flatMap { classNames[$0.name] } ?? ref("ManagedObject")
            userClasses.append("class \(name): \(base) {}")
            if isTop || !members.isEmpty {
                lines.append("/// The entity \"\(entity.name)\" (the class is written by hand).")
                lines.append("extension \(name)\(isTop ? ": " + conformances : "") {")
                lines += members
                lines.append("}")
            }
        }
        lines.append("")
        lines += propertiesExtension(entity, className: name, table: table)
        lines.append("")
        lines += propertyTable(entity, className: name, table: table, isTop: isTop)
        return lines.joined(separator: "\n") + "\n"
    }

    private func header(_ subject: String) -> [String] {
        [
            "// Generated by `objectgraph codegen` from \(subject).",
            "// Do not edit: run it again.",
            "",
            "import Foundation",
            "import ObjectGraph",
            "",
        ]
    }

    /// Whether the generated code of `entity` declares `entityName`: a class always; an
    /// extension only when nothing has to override it (no ancestor declares one, no generated
    /// subentity): declarations in extensions cannot be overridden.
    private func declaresEntityName(_ entity: Entity) -> Bool {
        switch modes[entity.name] {
        case .classDefinition?: return true
        case .category?:
            let hasDescendant = model.entities.contains {
                $0.parentName == entity.name && modes[$0.name] != nil
            }
            return !inheritsEntityName(entity) && !hasDescendant
        case nil: return false
        }
    }

    /// Whether an ancestor of `entity` declares `entityName`.
    private func inheritsEntityName(_ entity: Entity) -> Bool {
        model.lineage(of: entity).dropFirst().contains { declaresEntityName($0) }
    }

    private mutating func classMembers(_ entity: Entity, _ mode: Mode, table: String, isTop: Bool)
        -> [String]
    {
        let open = access.modifier
        var lines: [String] = []
        if declaresEntityName(entity) {
            let override = inheritsEntityName(entity) ? "override " : ""
            lines += [
                "    /// The entity's name in the model.",
                "    \(open)\(override)class var entityName: \(ref("String", in: "Swift")) { "
                    + "\(literal(entity.name)) }",
            ]
        } else if mode == .category {
            warn(
                "\(entity.name): a Category/Extension entity with a generated subentity or parent: "
                    + "no entityName (an extension's cannot be overridden); declare "
                    + "`class var entityName: String { \(literal(entity.name)) }` in your class")
        }
        guard isTop else { return lines }
        if !lines.isEmpty { lines.append("") }
        lines += [
            "    /// Registers every generated class of the model \"\(modelName)\" (ObjectGraph "
                + "calls it the",
            "    /// first time it meets one of them).",
            "    \(open)static func registerModelClasses(in classes: "
                + "\(ref("ManagedObjectClasses"))) {",
            "        \(modelName)ModelClasses.register(in: classes)",
            "    }",
            "",
            "    /// The model property `keyPath` (rooted at this class or a generated subclass) names.",
            "    \(open)static func propertyName(for keyPath: \(ref("AnyKeyPath", in: "Swift")))"
                + " -> \(ref("String", in: "Swift"))? {",
            "        \(table).keyPaths.name(for: keyPath)",
            "    }",
        ]
        return lines
    }

    private func literal(_ text: String) -> String {
        var escaped = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\": escaped += "\\\\"
            case "\"": escaped += "\\\""
            case "\n": escaped += "\\n"
            case "\r": escaped += "\\r"
            case "\t": escaped += "\\t"
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F {
                    escaped += "\\u{\(String(scalar.value, radix: 16))}"
                } else {
                    escaped.unicodeScalars.append(scalar)
                }
            }
        }
        return "\"\(escaped)\""
    }

    /// The entity's own properties (inherited ones come with the parent class).
    private mutating func propertiesExtension(_ entity: Entity, className: String, table: String)
        -> [String]
    {
        var lines = ["extension \(className) {"]
        var first = true
        let names = propertyNames[entity.name] ?? [:]
        for attribute in entity.attributes {
            if !first { lines.append("") }
            first = false
            lines += attributeLines(
                attribute, entity: entity, swift: names[attribute.name] ?? attribute.name,
                table: table)
        }
        for relationship in entity.relationships {
            if !first { lines.append("") }
            first = false
            lines += relationshipLines(
                relationship, swift: names[relationship.name] ?? relationship.name, table: table)
        }
        lines.append("}")
        return lines
    }

    private mutating func attributeLines(
        _ attribute: Attribute, entity: Entity, swift: String, table: String
    ) -> [String] {
        let open = access.modifier
        let key = "\(table).\(swift)"
        let type = swiftType(attribute, entity: entity)
        let describe = attribute.isOptional ? "optional" : "required"
        var lines = [
            "    /// The attribute \"\(attribute.name)\" (\(attribute.type), \(describe))."
        ]
        switch type {
        case .codable(let name):
            lines += [
                "    \(open)var \(swift): \(name)? {",
                "        get { codableValue(\(key), as: \(name).self) }",
                "        set { setCodableValue(newValue, \(key)) }",
                "    }",
            ]
        case .plain(let name, let absent):
            let arguments = absent.map { "\(key), default: \($0)" } ?? key
            let getter = "        get { attributeValue(\(arguments)) }"
            lines.append("    \(open)var \(swift): \(name)\(absent == nil ? "?" : "") {")
            lines +=
                getter.count <= 100
                ? [getter]
                : [
                    "        get {", "            attributeValue(", "                \(arguments))",
                    "        }",
                ]
            lines += [
                "        set { setAttributeValue(newValue, \(key)) }",
                "    }",
            ]
        }
        return lines
    }

    private func relationshipLines(_ relationship: Relationship, swift: String, table: String)
        -> [String]
    {
        let open = access.modifier
        let key = "\(table).\(swift)"
        let destination = destinationClass(relationship)
        guard relationship.isToMany else {
            return [
                "    /// The to-one relationship \"\(relationship.name)\" (to \(relationship.destinationEntityName)).",
                "    \(open)var \(swift): \(destination)? {",
                "        get { relatedObject(\(key), as: \(destination).self) }",
                "        set { setRelatedObject(newValue, \(key)) }",
                "    }",
            ]
        }
        let collection = relationship.isOrdered ? ref("RelatedList") : ref("RelatedSet")
        let setter = relationship.isOrdered ? "setRelatedList" : "setRelatedSet"
        let kind = relationship.isOrdered ? "ordered to-many" : "to-many"
        let plain = swift.trimmingCharacters(in: ["`"])
        let suffix = SwiftNames.capitalized(plain)
        var lines = [
            "    /// The \(kind) relationship \"\(relationship.name)\" (to \(relationship.destinationEntityName)).",
            "    \(open)var \(swift): \(collection)<\(destination)> {",
            "        get { \(collection)(self, \(key)) }",
            "        set { \(setter)(newValue, \(key)) }",
            "    }",
            "",
            "    /// Adds `value` to \"\(relationship.name)\".",
            "    \(open)func addTo\(suffix)(_ value: \(destination)) {",
            "        addRelatedObject(value, \(key))",
            "    }",
            "",
            "    /// Removes `value` from \"\(relationship.name)\".",
            "    \(open)func removeFrom\(suffix)(_ value: \(destination)) {",
            "        removeRelatedObject(value, \(key))",
            "    }",
            "",
            "    /// Adds `values` to \"\(relationship.name)\".",
            "    \(open)func addTo\(suffix)(_ values: some Sequence<\(destination)>) {",
            "        for value in values { addRelatedObject(value, \(key)) }",
            "    }",
            "",
            "    /// Removes `values` from \"\(relationship.name)\".",
            "    \(open)func removeFrom\(suffix)(_ values: some Sequence<\(destination)>) {",
            "        for value in values { removeRelatedObject(value, \(key)) }",
            "    }",
        ]
        if relationship.isOrdered {
            lines += [
                "",
                "    /// Inserts `value` into \"\(relationship.name)\" at `index`.",
                "    \(open)func insertInto\(suffix)(_ value: \(destination), at index: \(ref("Int", in: "Swift"))) {",
                "        addRelatedObject(value, \(key), at: index)",
                "    }",
                "",
                "    /// Removes the object at `index` of \"\(relationship.name)\".",
                "    \(open)func removeFrom\(suffix)(at index: \(ref("Int", in: "Swift"))) {",
                "        removeRelatedObject(at: index, \(key))",
                "    }",
                "",
                "    /// Replaces the object at `index` of \"\(relationship.name)\" with `value`.",
                "    \(open)func replace\(suffix)(at index: \(ref("Int", in: "Swift")), with value: \(destination)) {",
                "        removeRelatedObject(at: index, \(key))",
                "        addRelatedObject(value, \(key), at: index)",
                "    }",
            ]
        }
        return lines
    }

    private func destinationClass(_ relationship: Relationship) -> String {
        guard model.entity(named: relationship.destinationEntityName) != nil,
            let name = classNames[relationship.destinationEntityName]
        else { return ref("ManagedObject") }
        return name
    }

    /// The file-private table of the entity's properties and key paths.
    private func propertyTable(_ entity: Entity, className: String, table: String, isTop: Bool)
        -> [String]
    {
        let names = propertyNames[entity.name] ?? [:]
        var lines = [
            isTop
                ? "/// The properties of \(className), and the key paths of it and its generated subclasses."
                : "/// The properties of \(className)."
        ]
        lines.append("private enum \(table) {")
        // Attributes as `TypedAttribute`s, values the compiler builds (no lazy initialization
        // to check at each read); relationships as `TypedProperty`s.
        let kinds =
            entity.attributes.map { ($0.name, "TypedAttribute") }
            + entity.relationships.map { ($0.name, "TypedProperty") }
        for (property, type) in kinds {
            guard let swift = names[property] else { continue }
            lines.append("    static let \(swift) = \(ref(type))(\(literal(property)))")
        }
        guard isTop else {
            lines.append("}")
            return lines
        }
        var paths: [(String, String)] = []
        for generated in model.entities
        where modes[generated.name] != nil && model.lineage(of: generated).contains(entity) {
            paths += keyPaths(of: generated)
        }
        lines.append("")
        if paths.isEmpty {
            lines.append("    static let keyPaths = \(ref("KeyPathNameTable"))([:])")
        } else {
            lines.append("    static let keyPaths = \(ref("KeyPathNameTable"))([")
            for (path, name) in paths { lines.append("        \(path): \(literal(name)),") }
            lines.append("    ])")
        }
        lines.append("}")
        return lines
    }

    /// The key paths of `entity`'s class (inherited properties too, this class as root) and
    /// the properties they name; through to-one relationships, the destination's attributes.
    private func keyPaths(of entity: Entity) -> [(String, String)] {
        let names = propertyNames[entity.name] ?? [:]
        let className = classNames[entity.name] ?? entity.name
        var paths: [(String, String)] = []
        for name in model.lineage(of: entity).reversed().flatMap(Self.propertyNamesOf)
        where !paths.contains(where: { $0.1 == name }) {
            guard let swift = names[name] else { continue }
            paths.append(("\\\(className).\(swift)", name))
        }
        // Through to-one relationships: the destination's attributes.
        for relationship in model.lineage(of: entity).reversed().flatMap(\.relationships)
        where !relationship.isToMany {
            guard let swift = names[relationship.name],
                let destination = model.entity(named: relationship.destinationEntityName),
                modes[destination.name] != nil,
                let destinationNames = propertyNames[destination.name]
            else { continue }
            for attribute in model.lineage(of: destination).reversed().flatMap(\.attributes) {
                guard let attributeSwift = destinationNames[attribute.name] else { continue }
                let path = "\(relationship.name).\(attribute.name)"
                if paths.contains(where: { $0.1 == path }) { continue }
                paths.append(("\\\(className).\(swift)?.\(attributeSwift)", path))
            }
        }
        return paths
    }

    /// The registration file.
    private func registration() -> String {
        let open = access.modifier
        var lines = header("the model \"\(modelName)\"")
        lines += [
            "/// The classes generated for the model \"\(modelName)\".",
            "\(open)enum \(modelName)ModelClasses {",
            "    /// Registers each generated class for its entity in `classes`. ObjectGraph calls it the",
            "    /// first time a context meets one of the classes (a typed fetch or insert): you need not.",
            "    \(open)static func register(in classes: \(ref("ManagedObjectClasses")) = .shared) {",
        ]
        for entity in model.entities where modes[entity.name] != nil {
            guard let name = classNames[entity.name] else { continue }
            lines.append(
                "        classes.register(\(name).self, forEntity: \(literal(entity.name)))")
        }
        lines += ["    }", "}"]
        return lines.joined(separator: "\n") + "\n"
    }
}
