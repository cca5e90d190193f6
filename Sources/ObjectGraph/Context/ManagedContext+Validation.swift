import Foundation

/// The rules checked at save: required values, ranges, lengths, patterns, relationship counts,
/// deny rules, uniqueness constraints, and the objects' own validation hooks.
extension ManagedContext {
    /// Every problem of `objects` (the objects a save writes).
    func validationProblems(_ objects: [ManagedObject]) -> [ValidationError.Problem] {
        var problems: [ValidationError.Problem] = []
        for object in objects {
            if object.deletedFlag {
                if !object.insertedFlag { problems += deleteProblems(object) }
                continue
            }
            problems += propertyProblems(object)
            // The base class's hooks accept everything: only subclasses can object.
            guard type(of: object) != ManagedObject.self else { continue }
            do {
                if object.insertedFlag {
                    try object.validateForInsert()
                } else {
                    try object.validateForUpdate()
                }
            } catch {
                problems.append(problem(object, nil, .custom, .null, "\(error)"))
            }
        }
        if schema.hasUniquenessConstraints {
            problems += uniquenessProblems(objects.filter { !$0.deletedFlag })
        }
        if problems.count < 2 { return problems }
        return problems.sorted { ObjectID.precedes($0.objectID, $1.objectID) }
    }

    private func problem(
        _ object: ManagedObject, _ property: String?, _ rule: ValidationError.Problem.Rule,
        _ value: Value, _ message: String
    ) -> ValidationError.Problem {
        ValidationError.Problem(
            objectID: object.objectID, entity: object.schema.name, property: property, rule: rule,
            value: value, message: message)
    }

    private func deleteProblems(_ object: ManagedObject) -> [ValidationError.Problem] {
        var problems: [ValidationError.Problem] = []
        for position in object.schema.relationshipPositions {
            guard case .relationship(let relationship) = object.schema.properties[position],
                relationship.relationship.deleteRule == .deny
            else { continue }
            let targets: [ManagedObject]
            if relationship.isToMany {
                targets = (try? object.resolvedToMany(at: position)) ?? []
            } else {
                targets = ((try? object.resolvedToOne(at: position)) ?? nil).map { [$0] } ?? []
            }
            let blocking = targets.filter { !$0.deletedFlag }
            if !blocking.isEmpty {
                problems.append(
                    problem(
                        object, relationship.relationship.name, .deleteDenied, .null,
                        "cannot be deleted: its relationship '\(relationship.relationship.name)' "
                            + "(delete rule Deny) still holds \(blocking.count) object(s)"))
            }
        }
        do { try object.validateForDelete() } catch {
            problems.append(problem(object, nil, .custom, .null, "\(error)"))
        }
        return problems
    }

    private func propertyProblems(_ object: ManagedObject) -> [ValidationError.Problem] {
        var problems: [ValidationError.Problem] = []
        let entity = object.schema
        for position in entity.validatedPositions {
            switch entity.properties[position] {
            case .attribute(let attribute):
                guard case .value(let value) = object.slots[position] else { continue }
                problems += attributeProblems(object, attribute, value)
            case .relationship(let relationship):
                problems += relationshipProblems(object, relationship, position)
            }
        }
        // The base class's `validateValue` accepts everything: only subclasses can object.
        guard type(of: object) != ManagedObject.self else { return problems }
        for position in entity.attributePositions where !entity.isTransient[position] {
            guard case .value(let value) = object.slots[position] else { continue }
            do { try object.validateValue(value, forKey: entity.names[position]) } catch {
                problems.append(problem(object, entity.names[position], .custom, value, "\(error)"))
            }
        }
        for position in entity.relationshipPositions where !entity.isTransient[position] {
            let name = entity.names[position]
            switch object.slots[position] {
            case .toOne, .toOneFault, .toOneFaultID:
                let value = object.slots[position].toOneTarget.map(Value.objectID) ?? .null
                do { try object.validateValue(value, forKey: name) } catch {
                    problems.append(problem(object, name, .custom, value, "\(error)"))
                }
            case .toMany(let targets):
                do { try object.validateObjects(targets, forKey: name) } catch {
                    problems.append(problem(object, name, .custom, .null, "\(error)"))
                }
            case .value, .toManyFault:
                continue
            }
        }
        return problems
    }

    private func attributeProblems(
        _ object: ManagedObject, _ attribute: Attribute, _ value: Value
    ) -> [ValidationError.Problem] {
        let name = attribute.name
        if case .null = value {
            return attribute.isOptional
                ? [] : [problem(object, name, .required, value, "a value is required")]
        }
        var problems: [ValidationError.Problem] = []
        switch attribute.type {
        case .integer16, .integer32, .integer64, .double, .float, .decimal:
            guard let number = Double(value: value) else { break }
            if let min = attribute.minValueString.flatMap(Double.init), number < min {
                problems.append(
                    problem(object, name, .tooSmall, value, "\(value) is less than \(min)"))
            }
            if let max = attribute.maxValueString.flatMap(Double.init), number > max {
                problems.append(
                    problem(object, name, .tooLarge, value, "\(value) is more than \(max)"))
            }
        case .string:
            guard case .string(let text) = value else { break }
            let length = text.count
            if let min = attribute.minValueString.flatMap(Int.init), length < min {
                problems.append(
                    problem(
                        object, name, .tooShort, value, "\(length) characters, fewer than \(min)"))
            }
            if let max = attribute.maxValueString.flatMap(Int.init), length > max {
                problems.append(
                    problem(object, name, .tooLong, value, "\(length) characters, more than \(max)")
                )
            }
            if let pattern = attribute.regularExpression, !pattern.isEmpty,
                !Self.wholeMatch(pattern, text)
            {
                problems.append(
                    problem(object, name, .patternMismatch, value, "does not match /\(pattern)/"))
            }
        case .date:
            guard case .date(let date) = value else { break }
            let seconds = date.timeIntervalSinceReferenceDate
            if let min = attribute.minDateTimeInterval, seconds < min {
                problems.append(problem(object, name, .tooEarly, value, "is earlier than allowed"))
            }
            if let max = attribute.maxDateTimeInterval, seconds > max {
                problems.append(problem(object, name, .tooLate, value, "is later than allowed"))
            }
        default:
            break
        }
        return problems
    }

    private func relationshipProblems(
        _ object: ManagedObject, _ relationship: RelationshipSchema, _ position: Int
    ) -> [ValidationError.Problem] {
        let name = relationship.relationship.name
        let count: Int
        if relationship.isToMany {
            count =
                ((try? object.resolvedToMany(at: position)) ?? []).filter { !$0.deletedFlag }.count
        } else {
            let target = (try? object.resolvedToOne(at: position)) ?? nil
            count = (target == nil || target?.deletedFlag == true) ? 0 : 1
        }
        let rule = relationship.relationship
        if count == 0 {
            guard !rule.isOptional else { return [] }
            return [
                problem(
                    object, name, relationship.isToMany ? .tooFewObjects : .required, .null,
                    relationship.isToMany
                        ? "at least one object is required" : "an object is required")
            ]
        }
        guard relationship.isToMany else { return [] }
        if rule.minCount > 0, count < rule.minCount {
            return [
                problem(
                    object, name, .tooFewObjects, .integer(Int64(count)),
                    "holds \(count) object(s), fewer than \(rule.minCount)")
            ]
        }
        if rule.maxCount > 0, count > rule.maxCount {
            return [
                problem(
                    object, name, .tooManyObjects, .integer(Int64(count)),
                    "holds \(count) object(s), more than \(rule.maxCount)")
            ]
        }
        return []
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
