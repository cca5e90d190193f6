import Foundation

/// The model's validation rules, checked for one object: what ``ManagedObject``'s default
/// validation methods report, on demand and at save alike.
enum ValidationRules {
    /// A problem of `object`.
    static func problem(
        _ object: ManagedObject, _ property: String?, _ rule: ValidationError.Problem.Rule,
        _ value: Value, _ message: String, predicate: Predicate? = nil
    ) -> ValidationError.Problem {
        ValidationError.Problem(
            objectID: object.objectID, entity: object.schema.name, property: property, rule: rule,
            value: value, message: message, predicate: predicate)
    }

    /// The problems of `value` (already of the attribute's type) for `attribute`: required,
    /// minimum and maximum (values of numbers and dates, lengths of strings and binary data),
    /// regular expression, validation predicates.
    static func attributeProblems(
        _ object: ManagedObject, _ attribute: Attribute, _ value: Value
    ) -> [ValidationError.Problem] {
        let name = attribute.name
        if case .null = value {
            return attribute.isOptional
                ? [] : [problem(object, name, .required, value, "a value is required")]
        }
        var problems: [ValidationError.Problem] = []
        func report(_ rule: ValidationError.Problem.Rule, _ message: String) {
            problems.append(problem(object, name, rule, value, message))
        }
        switch (attribute.type, value) {
        case (.integer16, _), (.integer32, _), (.integer64, _), (.double, _), (.float, _),
            (.decimal, _):
            guard let number = Double(value: value) else { break }
            if let min = attribute.minValueString.flatMap(Double.init), number < min {
                report(.tooSmall, "\(value) is less than \(min)")
            }
            if let max = attribute.maxValueString.flatMap(Double.init), number > max {
                report(.tooLarge, "\(value) is more than \(max)")
            }
        case (.string, .string(let text)):
            // Lengths in UTF-16 code units, as Core Data (NSString's `length`) and the model
            // validator count them.
            let length = text.utf16.count
            if let min = attribute.minValueString.flatMap(Int.init), length < min {
                report(.tooShort, "\(length) characters, fewer than \(min)")
            }
            if let max = attribute.maxValueString.flatMap(Int.init), length > max {
                report(.tooLong, "\(length) characters, more than \(max)")
            }
            if let pattern = attribute.regularExpression, !pattern.isEmpty,
                !wholeMatch(pattern, text)
            {
                report(.patternMismatch, "does not match /\(pattern)/")
            }
        case (.binary, .data(let data)):
            if let min = attribute.minValueString.flatMap(Int.init), data.count < min {
                report(.tooShort, "\(data.count) bytes, fewer than \(min)")
            }
            if let max = attribute.maxValueString.flatMap(Int.init), data.count > max {
                report(.tooLong, "\(data.count) bytes, more than \(max)")
            }
        case (.date, .date(let date)):
            let seconds = date.timeIntervalSinceReferenceDate
            if let min = attribute.minDateTimeInterval, seconds < min {
                report(.tooEarly, "is earlier than allowed")
            }
            if let max = attribute.maxDateTimeInterval, seconds > max {
                report(.tooLate, "is later than allowed")
            }
        default:
            break
        }
        for rule in attribute.validationPredicates {
            let holds: Bool
            let reason: String
            do {
                holds = try rule.predicate.evaluate(with: EvaluationValue.value(value))
                reason = ""
            } catch {
                holds = false
                reason = " (it cannot be evaluated: \(error))"
            }
            guard !holds else { continue }
            let warning =
                rule.warning.isEmpty ? "does not satisfy \(rule.predicate)" : rule.warning
            problems.append(
                problem(
                    object, name, .predicate, value, warning + reason, predicate: rule.predicate))
        }
        return problems
    }

    /// The problems of a relationship holding `count` objects (not counting objects being
    /// deleted): required, minimum and maximum count.
    static func countProblems(
        _ object: ManagedObject, _ relationship: Relationship, count: Int
    ) -> [ValidationError.Problem] {
        let name = relationship.name
        if count == 0 {
            guard !relationship.isOptional else { return [] }
            return [
                problem(
                    object, name, relationship.isToMany ? .tooFewObjects : .required, .null,
                    relationship.isToMany
                        ? "at least one object is required" : "an object is required")
            ]
        }
        guard relationship.isToMany else { return [] }
        if relationship.minCount > 0, count < relationship.minCount {
            return [
                problem(
                    object, name, .tooFewObjects, .integer(Int64(count)),
                    "holds \(count) object(s), fewer than \(relationship.minCount)")
            ]
        }
        if relationship.maxCount > 0, count > relationship.maxCount {
            return [
                problem(
                    object, name, .tooManyObjects, .integer(Int64(count)),
                    "holds \(count) object(s), more than \(relationship.maxCount)")
            ]
        }
        return []
    }

    /// The problems of deleting `object`: one per relationship with the delete rule Deny that
    /// still holds an object not being deleted itself. Only an entity with such a relationship
    /// loads the object's values.
    static func deleteProblems(_ object: ManagedObject) throws -> [ValidationError.Problem] {
        var problems: [ValidationError.Problem] = []
        let schema = object.schema
        for position in schema.relationshipPositions {
            guard case .relationship(let relationship) = schema.properties[position],
                relationship.relationship.deleteRule == .deny
            else { continue }
            try object.fulfill()
            let targets: [ManagedObject]
            if relationship.isToMany {
                targets = try object.resolvedToMany(at: position)
            } else {
                targets = try object.resolvedToOne(at: position).map { [$0] } ?? []
            }
            let blocking = targets.filter { !$0.deletedFlag }.count
            if blocking > 0 {
                let name = relationship.relationship.name
                problems.append(
                    problem(
                        object, name, .deleteDenied, .null,
                        "cannot be deleted: its relationship '\(name)' (delete rule Deny) "
                            + "still holds \(blocking) object(s)"))
            }
        }
        return problems
    }

    /// The problems of `object`'s relationships holding an object that has no row and will
    /// not get one: an insert discarded by `refresh(_:mergeChanges: false)` (temporary ID, no
    /// longer inserted). Saving would store such a reference as nothing. Checks every loaded
    /// relationship of an inserted object, the changed ones of an updated object (a reference
    /// to an unsaved object is always a change).
    static func danglingProblems(_ object: ManagedObject) -> [ValidationError.Problem] {
        var problems: [ValidationError.Problem] = []
        let positions =
            object.insertedFlag
            ? object.schema.relationshipPositions : object.changedPositions()
        for position in positions {
            guard case .relationship(let relationship) = object.schema.properties[position]
            else { continue }
            let targets: [ManagedObject]
            switch object.slots[position] {
            case .toOne(let target?): targets = [target]
            case .toMany(let list): targets = list
            default: continue
            }
            for target in targets where target.objectID.isTemporary && !target.insertedFlag {
                let name = relationship.relationship.name
                problems.append(
                    problem(
                        object, name, .danglingReference, .objectID(target.objectID),
                        "dangling reference to an invalid object: '\(name)' holds "
                            + "\(target.schema.name) \(target.objectID), whose insert was "
                            + "discarded (refreshed without merging changes)"))
            }
        }
        return problems
    }

    /// Whether `text` matches the ICU `pattern` as a whole. An invalid pattern matches nothing
    /// (the model validator reports it).
    static func wholeMatch(_ pattern: String, _ text: String) -> Bool {
        guard let regex = try? RegexCache.shared.regex(pattern, caseInsensitive: false) else {
            return false
        }
        let range = NSRange(text.startIndex..., in: text)
        return regex.firstMatch(in: text, options: [], range: range) != nil
    }
}
