import Foundation
import ObjectGraph

/// `objectgraph describe [--version-hashes] PATH`: a readable summary of a model, or its entity
/// version hashes.
struct DescribeCommand: Command {
    static let name = "describe"
    static let abstract = "Summarize a Core Data model, or print its entity version hashes"
    static let help = """
        OVERVIEW: Summarize a Core Data model, or print its entity version hashes.

        The summary lists each entity (parent, abstract), its attributes (type, optional,
        transient, default), relationships (to-one / to-many / ordered, destination, inverse,
        delete rule), fetched properties, uniqueness constraints and indexes, then the fetch
        request templates and configurations.

        USAGE: objectgraph describe [--version-hashes] <path>

        ARGUMENTS:
          <path>              A .xcdatamodeld bundle (its current version), a .xcdatamodel
                              folder, or a contents file.

        OPTIONS:
          --version-hashes    Print one line per entity, sorted by name:
                              EntityName<TAB>base64 version hash
                              (the hashes Core Data stores in NSStoreModelVersionHashes).
          -h, --help          Show this help.

        EXIT STATUS:
          0  Success.
          2  Usage error, or the file cannot be read or is not a well-formed model.

        """

    static func run(_ arguments: [String], io: CommandIO) -> Int32 {
        var hashesOnly = false
        var paths: [String] = []
        var onlyPaths = false
        for argument in arguments {
            if onlyPaths || !argument.hasPrefix("-") || argument == "-" {
                paths.append(argument)
            } else if argument == "--" {
                onlyPaths = true
            } else if argument == "--version-hashes" {
                hashesOnly = true
            } else {
                return usageError("unknown option '\(argument)'", io: io)
            }
        }
        guard let path = paths.first else { return usageError("missing model path", io: io) }
        guard paths.count == 1 else {
            return usageError("expected one model path, got \(paths.count)", io: io)
        }
        let model: EntityModel
        do {
            model = try EntityModel(contentsOf: URL(fileURLWithPath: path))
        } catch let error as ModelError {
            var located = error
            if located.location == nil {
                located.location = SourceLocation(file: path, line: 0, column: 0)
            }
            io.writeError("\(located)\n")
            return ExitStatus.usage
        } catch {
            io.writeError("\(path): error: \(error)\n")
            return ExitStatus.usage
        }
        io.write(hashesOnly ? versionHashes(of: model) : summary(of: model, path: path))
        return ExitStatus.success
    }

    /// `EntityName<TAB>base64` lines sorted by entity name.
    static func versionHashes(of model: EntityModel) -> String {
        model.entityVersionHashes.sorted { $0.key < $1.key }
            .map { "\($0.key)\t\($0.value.base64EncodedString())\n" }
            .joined()
    }

    // MARK: Summary

    static func summary(of model: EntityModel, path: String) -> String {
        var lines: [String] = []
        var header = "\(path): \(counted(model.entities.count, "entity", "entities"))"
        header += ", \(counted(model.fetchTemplates.count, "fetch request template"))"
        header += ", \(counted(model.configurations.count, "configuration"))"
        lines.append(header)
        if let version = model.versionIdentifier, !version.isEmpty {
            lines.append("Version identifier: \(version)")
        }
        var subentities: [String: [String]] = [:]
        for entity in model.entities {
            if let parent = entity.parentName {
                subentities[parent, default: []].append(entity.name)
            }
        }
        for entity in model.entities {
            lines.append("")
            lines += describe(entity, subentities: subentities[entity.name] ?? [])
        }
        if !model.fetchTemplates.isEmpty {
            lines.append("")
            lines.append("Fetch request templates:")
            lines += table(model.fetchTemplates.map { ($0.name, fetchText($0)) })
        }
        if !model.configurations.isEmpty {
            lines.append("")
            lines.append("Configurations:")
            lines += table(
                model.configurations.map { configuration in
                    let cloud = configuration.isUsedWithCloudKit ? " (CloudKit)" : ""
                    let members =
                        configuration.entityNames.isEmpty
                        ? "no entities" : configuration.entityNames.joined(separator: ", ")
                    return (configuration.name + cloud, members)
                })
        }
        return lines.joined(separator: "\n") + "\n"
    }

    static func describe(_ entity: Entity, subentities: [String]) -> [String] {
        var title = "Entity \(entity.name)"
        if let parent = entity.parentName { title += " : \(parent)" }
        if entity.isAbstract { title += " (abstract)" }
        var lines = [title]
        if let className = entity.className, className != entity.name {
            lines.append("  class: \(className)")
        }
        if !subentities.isEmpty {
            lines.append("  subentities: \(subentities.joined(separator: ", "))")
        }
        if !entity.attributes.isEmpty {
            lines.append("  attributes:")
            lines += table(entity.attributes.map { ($0.name, attributeText($0)) }, indent: 4)
        }
        if !entity.relationships.isEmpty {
            lines.append("  relationships:")
            lines += table(
                entity.relationships.map { ($0.name, relationshipText($0)) }, indent: 4)
        }
        if !entity.fetchedProperties.isEmpty {
            lines.append("  fetched properties:")
            lines += table(
                entity.fetchedProperties.map { ($0.name, fetchText($0.fetchRequest)) }, indent: 4)
        }
        if !entity.uniquenessConstraints.isEmpty {
            let constraints = entity.uniquenessConstraints.map {
                "(\($0.joined(separator: ", ")))"
            }
            lines.append("  uniqueness constraints: \(constraints.joined(separator: ", "))")
        }
        if !entity.fetchIndexes.isEmpty {
            let indexes = entity.fetchIndexes.map { index in
                let elements = index.elements.map {
                    "\($0.property) \($0.isAscending ? "ascending" : "descending")"
                }
                return "\(index.name) (\(elements.joined(separator: ", ")))"
            }
            lines.append("  fetch indexes: \(indexes.joined(separator: ", "))")
        }
        if !entity.compoundIndexes.isEmpty {
            let indexes = entity.compoundIndexes.map { "(\($0.joined(separator: ", ")))" }
            lines.append("  compound indexes: \(indexes.joined(separator: ", "))")
        }
        return lines
    }

    /// `Integer 16, optional, default 0`.
    static func attributeText(_ attribute: Attribute) -> String {
        var parts = [attribute.type.description]
        parts.append(attribute.isOptional ? "optional" : "required")
        if attribute.isTransient { parts.append("transient") }
        if attribute.isIndexed { parts.append("indexed") }
        if let interval = attribute.defaultDateTimeInterval, attribute.type == .date {
            let date = Date(timeIntervalSinceReferenceDate: interval)
            parts.append("default \(ISO8601DateFormatter().string(from: date))")
        } else if let value = attribute.defaultValueString {
            parts.append("default \"\(value)\"")
        }
        if attribute.minValueString != nil || attribute.maxValueString != nil {
            let word = attribute.type == .string ? "length" : "range"
            parts.append(
                "\(word) \(attribute.minValueString ?? "")...\(attribute.maxValueString ?? "")")
        }
        if attribute.isDerived {
            parts.append("derived from \(attribute.derivationExpression ?? "?")")
        }
        if attribute.type == .composite, let composite = attribute.compositeName {
            parts.append("composite \(composite)")
        }
        if let transformer = attribute.valueTransformerName, !transformer.isEmpty {
            parts.append("transformer \(transformer)")
        }
        return parts.joined(separator: ", ")
    }

    /// `to-many, ordered -> Course, inverse members, delete rule Cascade, optional`.
    static func relationshipText(_ relationship: Relationship) -> String {
        var kind = relationship.isToMany ? "to-many" : "to-one"
        if relationship.isToMany && relationship.isOrdered { kind += ", ordered" }
        var parts = ["\(kind) -> \(relationship.destinationEntityName)"]
        if let inverse = relationship.inverseName {
            parts.append("inverse \(inverse)")
        } else {
            parts.append("no inverse")
        }
        parts.append(
            "delete rule \(relationship.unknownDeleteRule ?? relationship.deleteRule.rawValue)")
        parts.append(relationship.isOptional ? "optional" : "required")
        if relationship.isToMany && (relationship.minCount > 0 || relationship.maxCount > 0) {
            let maximum = relationship.maxCount == 0 ? "*" : String(relationship.maxCount)
            parts.append("count \(relationship.minCount)...\(maximum)")
        }
        if relationship.isTransient { parts.append("transient") }
        return parts.joined(separator: ", ")
    }

    /// `Student where name == $NAME`.
    static func fetchText(_ request: FetchTemplate) -> String {
        guard let predicate = request.predicateString, !predicate.isEmpty else {
            return "all \(request.entityName)"
        }
        return "\(request.entityName) where \(predicate)"
    }

    /// Name-and-text rows with the names padded to one column.
    static func table(_ rows: [(String, String)], indent: Int = 2) -> [String] {
        let width = rows.map(\.0.count).max() ?? 0
        let margin = String(repeating: " ", count: indent)
        return rows.map { name, text in
            margin + name.padding(toLength: width, withPad: " ", startingAt: 0) + "  " + text
        }
    }

    static func counted(_ count: Int, _ noun: String, _ plural: String? = nil) -> String {
        "\(count) \(count == 1 ? noun : plural ?? noun + "s")"
    }
}
