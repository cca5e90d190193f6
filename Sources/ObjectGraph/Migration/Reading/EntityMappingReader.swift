import Foundation
import KeyedArchive

/// Reads one `XDDEVENTITYMAPPING` (and the property mappings it lists) as an ``EntityMapping``.
struct EntityMappingReader {
    let file: MappingModelFile
    let object: MappingModelFile.Object

    /// Core Data's `NSEntityMappingType` values, and the names Xcode writes.
    private static let kinds: [String: EntityMapping.Kind] = [
        "0": .undefined, "1": .custom, "2": .add, "3": .remove, "4": .copy, "5": .transform,
        "undefined": .undefined, "custom": .custom, "add": .add, "remove": .remove, "copy": .copy,
        "transform": .transform,
    ]

    /// The source fetch Xcode generates: `FETCH(FUNCTION($manager, "<this>", "Entity",
    /// "predicate"), $manager.sourceContext, NO)`.
    static let defaultFetchSelector = "fetchRequestForSourceEntityNamed:predicateString:"

    func entityMapping() throws(MigrationError) -> EntityMapping {
        let source = file.string(object, "sourcename")
        let destination = file.string(object, "destinationname")
        guard source != nil || destination != nil else {
            throw file.failure(object, "names neither a source nor a destination entity")
        }
        var mapping = EntityMapping(
            name: file.string(object, "name") ?? Self.defaultName(source, destination),
            kind: try kind(), sourceEntityName: source, destinationEntityName: destination)
        mapping.migrationPolicyClassName = file.string(object, "migrationpolicyclassname")
        mapping.userInfo = try userInfo(object)
        mapping.filterPredicate = try filterPredicate()
        if !file.bool(object, "autogenerateexpression") {
            try readSourceExpression(into: &mapping)
        }
        mapping.attributeMappings = try propertyMappings(
            "attributemappings", type: "XDDEVATTRIBUTEMAPPING")
        mapping.relationshipMappings = try propertyMappings(
            "relationshipmappings", type: "XDDEVRELATIONSHIPMAPPING")
        return mapping
    }

    /// Xcode's name: `SourceToDestination`, or the one entity's name.
    private static func defaultName(_ source: String?, _ destination: String?) -> String {
        switch (source, destination) {
        case (let source?, let destination?): return "\(source)To\(destination)"
        default: return destination ?? source ?? ""
        }
    }

    /// The kind, from `mappingtypename` (a name or a number) or a numeric `mappingtype`.
    private func kind() throws(MigrationError) -> EntityMapping.Kind {
        let text = file.string(object, "mappingtypename") ?? file.string(object, "mappingtype")
        guard let text else { return .undefined }
        let key = text.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
        let name = key.hasSuffix("entitymappingtype") ? String(key.dropLast(17)) : key
        guard let kind = Self.kinds[name] else {
            throw file.failure(object, "mapping type \"\(text)\" is not one Core Data knows")
        }
        return kind
    }

    // MARK: Which source objects

    /// The filter predicate: a format string, or an archived predicate.
    private func filterPredicate() throws(MigrationError) -> Predicate? {
        for name in ["filterpredicatestring", "sourcefilterpredicatestring", "filterpredicate"] {
            guard let text = file.string(object, name) else { continue }
            return try parsed(text, name)
        }
        guard let data = try file.data(object, "filterpredicatedata") else { return nil }
        do {
            return try Predicate(archivedData: data)
        } catch {
            throw file.failure(object, "filterpredicatedata: \(error)")
        }
    }

    private func parsed(_ text: String, _ attribute: String) throws(MigrationError) -> Predicate {
        do {
            return try Predicate(format: text)
        } catch {
            throw file.failure(object, "\(attribute) \"\(text)\": \(error)")
        }
    }

    /// A custom source expression (archived, or a format string). Xcode's own form, a fetch of
    /// the source entity's objects matching a predicate, becomes the filter predicate; other
    /// expressions stay the source expression.
    private func readSourceExpression(into mapping: inout EntityMapping) throws(MigrationError) {
        if let data = try file.data(object, "sourceexpressiondata") {
            var decoder = ArchivedPredicateDecoder()
            do {
                let root = try ArchivedPredicateDecoder.root(of: data)
                if case .object(let fetch) = root, fetch.className == "NSFetchRequestExpression" {
                    let request = try decoder.expression(
                        try decoder.field(fetch, "NSFRExpression"), depth: 1)
                    let countOnly = try decoder.optionalField(fetch, "NSCountOnlyFlag")?.integer
                    try fold(request, countOnly: (countOnly ?? 0) != 0, into: &mapping)
                } else {
                    mapping.sourceExpression = try decoder.expression(root, depth: 0)
                }
            } catch let error as ArchivedPredicateError {
                throw file.failure(object, "sourceexpressiondata: \(error)")
            } catch let error as MigrationError {
                throw error
            } catch {
                throw file.failure(object, "sourceexpressiondata: \(error)")
            }
            return
        }
        for name in ["sourceexpressionstring", "sourceexpression"] {
            guard let text = file.string(object, name) else { continue }
            try readSourceExpression(text, name, into: &mapping)
            return
        }
    }

    /// A source expression written as text; `FETCH(request, context, countOnly)` is read as the
    /// aggregate of its three parts (the predicate language has no `FETCH` expression).
    private func readSourceExpression(
        _ text: String, _ attribute: String, into mapping: inout EntityMapping
    ) throws(MigrationError) {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        let isFetch = trimmed.uppercased().hasPrefix("FETCH(") && trimmed.hasSuffix(")")
        let source = isFetch ? "{" + trimmed.dropFirst(6).dropLast() + "}" : trimmed
        let expression: Expression
        do {
            expression = try Expression(format: source)
        } catch {
            throw file.failure(object, "\(attribute) \"\(text)\": \(error)")
        }
        guard isFetch else {
            mapping.sourceExpression = expression
            return
        }
        guard case .aggregate(let parts) = expression, parts.count == 3 else {
            throw file.failure(
                object, "\(attribute) \"\(text)\" is not FETCH(request, context, NO)")
        }
        let countOnly = parts[2] == .constant(.bool(true)) || parts[2] == .constant(.integer(1))
        try fold(parts[0], countOnly: countOnly, into: &mapping)
    }

    /// Folds Xcode's source fetch into the mapping: its predicate joins the filter predicate.
    /// Any other fetch request has no ObjectGraph form.
    private func fold(_ request: Expression, countOnly: Bool, into mapping: inout EntityMapping)
        throws(MigrationError)
    {
        guard !countOnly,
            case .functionCall(.variable("manager"), Self.defaultFetchSelector, let arguments) =
                request,
            arguments.count == 2, case .constant(.string(let entity)) = arguments[0],
            case .constant(.string(let format)) = arguments[1]
        else {
            throw file.failure(
                object,
                "the source expression fetches with \(request)\(countOnly ? " (count only)" : ""),"
                    + " not FUNCTION($manager, \"\(Self.defaultFetchSelector)\", …)")
        }
        guard entity == mapping.sourceEntityName else {
            throw file.failure(
                object,
                "the source expression fetches \(entity), not the source entity"
                    + " \(mapping.sourceEntityName ?? "(none)")")
        }
        let predicate = try parsed(format, "the source expression's predicate")
        switch (predicate, mapping.filterPredicate) {
        case (.constant(true), _): break
        case (_, nil): mapping.filterPredicate = predicate
        case (_, let filter?): mapping.filterPredicate = .and([predicate, filter])
        }
    }

    // MARK: Properties

    private func propertyMappings(_ relationship: String, type: String) throws(MigrationError)
        -> [PropertyMapping]
    {
        var result: [PropertyMapping] = []
        for property in try file.related(object, relationship, type: type) {
            guard let name = file.string(property, "name") else {
                throw file.failure(property, "a property mapping without a name")
            }
            var mapping = PropertyMapping(name: name, userInfo: try userInfo(property))
            if let data = try file.data(property, "valueexpressiondata") {
                do {
                    mapping.valueExpression = try Expression(archivedData: data)
                } catch {
                    throw file.failure(property, "\(name): valueexpressiondata: \(error)")
                }
            } else if let text = file.string(property, "valueexpressionstring") {
                do {
                    mapping.valueExpression = try Expression(format: text)
                } catch {
                    throw file.failure(property, "\(name): valueexpressionstring: \(error)")
                }
            }
            result.append(mapping)
        }
        return result
    }

    /// The user info archived in `userinfodata` (an `NSDictionary`), values as text.
    private func userInfo(_ owner: MappingModelFile.Object) throws(MigrationError) -> [String:
        String]
    {
        guard let data = try file.data(owner, "userinfodata") else { return [:] }
        do {
            guard case .dictionary(let entries) = try KeyedArchive(data: data).rootValue() else {
                throw file.failure(owner, "userinfodata is not a dictionary")
            }
            var result: [String: String] = [:]
            for (key, value) in entries {
                guard let name = key.string else {
                    throw file.failure(owner, "userinfodata has a key that is not a string")
                }
                switch value {
                case .string(let text): result[name] = text
                case .integer(let number): result[name] = String(number)
                case .real(let number): result[name] = String(number)
                case .bool(let flag): result[name] = flag ? "YES" : "NO"
                default:
                    throw file.failure(owner, "userinfodata value for \(name) is not text")
                }
            }
            return result
        } catch let error as MigrationError {
            throw error
        } catch {
            throw file.failure(owner, "userinfodata: \(error)")
        }
    }
}
