import Foundation
import KeyedArchive

/// Validation rules, fetch request templates and fetched properties of an archived model.
/// Their predicates are archived `NSPredicate`s; one ObjectGraph has no form for (a custom
/// selector, say) is left out with a warning in the model's ``EntityModel/loadDiagnostics``.
extension ArchivedModelReader {
    /// The largest number of archive objects one predicate may expand to (shared objects
    /// counted each time they are met), so that a small archive cannot make decoding slow.
    static let predicateSizeLimit = 100_000

    /// The predicate archived in `value` (a field `key` of `owner`), or `nil` (with a warning)
    /// when it has no ObjectGraph form.
    mutating func predicate(_ value: ArchivedValue, of owner: ArchivedObject, _ key: String)
        throws(ArchivedModelError) -> Predicate?
    {
        guard case .predicate(let predicate)? = try decoded(value, of: owner, key, predicate: true)
        else { return nil }
        return predicate
    }

    /// The expression archived in `value` (a derivation), or `nil` (with a warning) when it
    /// has no ObjectGraph form.
    mutating func expression(_ value: ArchivedValue, of owner: ArchivedObject, _ key: String)
        throws(ArchivedModelError) -> Expression?
    {
        guard
            case .expression(let expression)? = try decoded(value, of: owner, key, predicate: false)
        else { return nil }
        return expression
    }

    private enum DecodedForm {
        case predicate(Predicate)
        case expression(Expression)
    }

    /// `value` decoded as a predicate or an expression, once its expanded size is counted
    /// against the budget; `nil`, with a warning, when it has no ObjectGraph form.
    private mutating func decoded(
        _ value: ArchivedValue, of owner: ArchivedObject, _ key: String, predicate: Bool
    ) throws(ArchivedModelError) -> DecodedForm? {
        var memo: [Int: Int] = [:]
        var open: Set<Int> = []
        try spend(try expandedSize(value, owner, &memo, &open), owner)
        var decoder = ArchivedPredicateDecoder()
        do {
            return predicate
                ? .predicate(try decoder.predicate(value, depth: 0))
                : .expression(try decoder.expression(value, depth: 0))
        } catch {
            diagnostics.append(
                Diagnostic(
                    .warning, "model-cache-predicate",
                    "\(source): model cache, archive object \(owner.index) (\(owner.className)):"
                        + " \(key) left out: \(error.description)"))
            return nil
        }
    }

    /// How many objects `value` expands to as a tree, counting a shared object each time:
    /// computed once per object, capped at ``predicateSizeLimit``.
    private mutating func expandedSize(
        _ value: ArchivedValue, _ owner: ArchivedObject, _ memo: inout [Int: Int],
        _ open: inout Set<Int>
    ) throws(ArchivedModelError) -> Int {
        switch value {
        case .array(let elements), .set(let elements):
            var total = 1
            for element in elements {
                total = min(
                    Self.predicateSizeLimit,
                    total + (try expandedSize(element, owner, &memo, &open)))
            }
            return total
        case .object(let object):
            if let known = memo[object.index] { return known }
            guard open.insert(object.index).inserted else {
                throw failure(object, "a predicate that contains itself")
            }
            var total = 1
            for key in object.keys {
                guard let field = try field(object, key) else { continue }
                total = min(
                    Self.predicateSizeLimit, total + (try expandedSize(field, object, &memo, &open))
                )
            }
            open.remove(object.index)
            memo[object.index] = total
            guard total < Self.predicateSizeLimit else {
                throw failure(object, "a predicate of more than \(Self.predicateSizeLimit) parts")
            }
            return total
        default:
            return 1
        }
    }

    /// `NSValidationPredicates` and `NSValidationWarnings` of an attribute: the compiled
    /// minimum, maximum and regular expression go back to their fields, other rules to
    /// ``Attribute/validationPredicates``.
    mutating func validationRules(_ property: ArchivedObject, into attribute: inout Attribute)
        throws(ArchivedModelError)
    {
        let predicates = try list(property, "NSValidationPredicates")
        let warnings = try list(property, "NSValidationWarnings")
        for (position, value) in predicates.enumerated() {
            guard let predicate = try predicate(value, of: property, "NSValidationPredicates")
            else { continue }
            let warning = position < warnings.count ? warnings[position] : nil
            if case .integer(let code)? = warning,
                let kind = ArchivedModelRules.Kind(rawValue: code),
                ArchivedModelRules.apply(predicate, kind, to: &attribute)
            {
                continue
            }
            attribute.validationPredicates.append(
                ValidationPredicate(predicate, warning: warning.flatMap(Self.text(of:)) ?? ""))
        }
    }

    /// `NSFetchRequestTemplates`: the model's fetch request templates, by name.
    mutating func fetchTemplates(_ root: ArchivedObject) throws(ArchivedModelError)
        -> [FetchTemplate]
    {
        guard let value = try field(root, "NSFetchRequestTemplates") else { return [] }
        guard case .dictionary(let entries) = value else {
            throw failure(root, "NSFetchRequestTemplates is not a dictionary")
        }
        var result: [FetchTemplate] = []
        for (key, request) in entries {
            guard let name = key.string, let object = request.object else {
                throw failure(root, "NSFetchRequestTemplates holds something other than a request")
            }
            result.append(try fetchTemplate(object, name: name, entityName: nil))
        }
        return result.sorted { $0.name.utf8Less(than: $1.name) }
    }

    /// A fetched property (`NSFetchedPropertyDescription`).
    mutating func fetchedProperty(_ property: ArchivedObject) throws(ArchivedModelError)
        -> FetchedProperty
    {
        let name = try string(property, "NSPropertyName") ?? ""
        guard let request = try objectField(property, "NSFetchRequest") else {
            throw failure(property, "fetched property \"\(name)\" has no NSFetchRequest")
        }
        let template = try fetchTemplate(
            request, name: "fetchedPropertyFetchRequest",
            entityName: try string(property, "_NSFetchRequestEntityName"))
        let bits = try integer(property, "_P") ?? 0
        var fetched = FetchedProperty(
            name, fetchRequest: template,
            isOptional: try bool(property, "NSIsOptional") ?? (bits & 0x2 != 0))
        fetched.userInfo = try userInfo(property)
        return fetched
    }

    /// An `NSFetchRequest` as a template: entity, predicate, limit, batch size, result type
    /// and flags.
    private mutating func fetchTemplate(
        _ request: ArchivedObject, name: String, entityName: String?
    ) throws(ArchivedModelError) -> FetchTemplate {
        guard request.isKind(of: "NSFetchRequest") else {
            throw failure(request, "fetch request \"\(name)\" is not an NSFetchRequest")
        }
        var entity = entityName
        switch try field(request, "NSEntity") {
        case .string(let text)?: entity = text
        case .object(let object)?: entity = try string(object, "NSEntityName") ?? entity
        default: break
        }
        guard let entity else {
            throw failure(request, "fetch request \"\(name)\" names no entity")
        }
        var template = FetchTemplate(name, entity: entity)
        if let value = try field(request, "NSPredicate") {
            template.predicateString =
                try predicate(value, of: request, "NSPredicate")?.description
        }
        let limit = try integer(request, "NSFetchLimit") ?? 0
        let batch = try integer(request, "NSBatchSize") ?? 0
        let resultType = try integer(request, "NSResultType") ?? 0
        template.fetchLimit = limit == 0 ? nil : limit
        template.fetchBatchSize = batch == 0 ? nil : batch
        template.resultType = resultType == 0 ? nil : resultType
        if try bool(request, "NSHasFetchRequestFlags") == true {
            let flags = try integer(request, "NSFetchRequestFlags") ?? 0
            template.returnsDistinctResults = flags & 0x1 != 0
            template.includesSubentities = flags & 0x2 != 0
            template.includesPropertyValues = flags & 0x4 != 0
            template.returnsObjectsAsFaults = flags & 0x8 != 0
            template.includesPendingChanges = flags & 0x10 != 0
        }
        return template
    }
}
