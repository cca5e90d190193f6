import Foundation

/// Validation on demand: what the default ``ManagedObject/validateValue(_:forKey:)``,
/// ``ManagedObject/validateObjects(_:forKey:)``, ``ManagedObject/validateForInsert()``,
/// ``ManagedObject/validateForUpdate()`` and ``ManagedObject/validateForDelete()`` do, and the
/// helpers an override uses to report its own problems.
extension ManagedObject {
    // MARK: - Helpers for overrides

    /// A ``ValidationError`` of this object with one problem of your own (rule
    /// ``ValidationError/Problem/Rule/custom``), for an override to throw.
    ///
    /// ```swift
    /// throw validationError("ends before it starts", forKey: "end", value: self["end"])
    /// ```
    public func validationError(_ message: String, forKey key: String? = nil, value: Value = .null)
        -> ValidationError
    {
        ValidationError(problems: [ValidationRules.problem(self, key, .custom, value, message)])
    }

    /// Runs every check, then throws the problems of all that failed as one ``ValidationError``
    /// (an error that is not one becomes a ``ValidationError/Problem/Rule/custom`` problem of
    /// this object): how an override keeps what `super` found and adds its own, as Core Data
    /// asks ("combine any error returned by super's implementation with their own").
    ///
    /// ```swift
    /// override func validateForUpdate() throws {
    ///     try combiningValidationErrors(
    ///         { try super.validateForUpdate() },
    ///         { if self.endsBeforeItStarts { throw self.validationError("ends too early") } })
    /// }
    /// ```
    public func combiningValidationErrors(_ checks: () throws -> Void...) throws {
        var problems: [ValidationError.Problem] = []
        for check in checks {
            do { try check() } catch { problems += validationProblems(of: error, key: nil) }
        }
        if !problems.isEmpty { throw ValidationError(problems: problems) }
    }

    /// The problems `error` stands for: its own when it is a ``ValidationError``, else one
    /// ``ValidationError/Problem/Rule/custom`` problem of this object for `key` and `value`.
    func validationProblems(of error: any Error, key: String?, value: Value = .null)
        -> [ValidationError.Problem]
    {
        if let error = error as? ValidationError { return error.problems }
        return [ValidationRules.problem(self, key, .custom, value, "\(error)")]
    }

    // MARK: - The default implementations

    /// The default ``validateValue(_:forKey:)``: coerces `value` to the attribute's type and
    /// checks the model's rules for the attribute or to-one relationship `key`.
    func validateValueAgainstModel(_ value: inout Value, forKey key: String) throws {
        let position = try schema.position(of: key)
        let problems: [ValidationError.Problem]
        switch schema.kinds[position] {
        case .attribute:
            guard let type = schema.attributeTypes[position] else { return }
            value = try type.coerce(value, entity: schema.name, property: key)
            // Most properties have no rules: those return before their declaration is read.
            guard schema.hasValidationRules[position],
                case .attribute(let attribute) = schema.properties[position]
            else { return }
            problems = ValidationRules.attributeProblems(self, attribute, value)
        case .toOne:
            let count: Int
            switch value {
            case .null: count = 0
            case .objectID(let id):
                count = context?.registeredObject(for: id)?.deletedFlag == true ? 0 : 1
            default:
                throw ObjectGraphError.typeMismatch(
                    entity: schema.name, property: key, expected: "an object ID",
                    got: value.kindDescription)
            }
            guard schema.hasValidationRules[position],
                case .relationship(let relationship) = schema.properties[position]
            else { return }
            problems = ValidationRules.countProblems(
                self, relationship.relationship, count: count)
        case .toMany:
            throw ObjectGraphError.wrongPropertyKind(
                entity: schema.name, property: key,
                expected: "an attribute or a to-one relationship (validateObjects(_:forKey:)"
                    + " checks a to-many relationship)")
        }
        if !problems.isEmpty { throw ValidationError(problems: problems) }
    }

    /// The default ``validateObjects(_:forKey:)``: the model's count rules for the to-many
    /// relationship `key` holding `objects`.
    func validateObjectsAgainstModel(_ objects: [ManagedObject], forKey key: String) throws {
        let position = try relationshipPosition(key, toMany: true)
        guard case .relationship(let relationship) = schema.properties[position] else { return }
        let count = objects.count { !$0.deletedFlag }
        let problems = ValidationRules.countProblems(
            self, relationship.relationship, count: count)
        if !problems.isEmpty { throw ValidationError(problems: problems) }
    }

    /// The default ``validateForInsert()`` and ``validateForUpdate()``: every property in turn
    /// (transient ones too, as in Core Data). An object of ``ManagedObject`` itself, whose
    /// per-property methods are the defaults, checks only the properties with rules and calls
    /// no method per property.
    func validatePropertiesAgainstModel() throws {
        try fulfill()
        var problems =
            type(of: self) == ManagedObject.self ? modelProblems() : propertyMethodProblems()
        if let context, !context.rejectedWrites.isEmpty {
            problems += context.rejectedWrites.problems(of: self)
        }
        if !problems.isEmpty { throw ValidationError(problems: problems) }
    }

    /// The default ``validateForDelete()``: the Deny rules.
    func validateDeleteRules() throws {
        let problems = try ValidationRules.deleteProblems(self)
        if !problems.isEmpty { throw ValidationError(problems: problems) }
    }

    /// The problems of the model's rules, read from the slots of the positions with rules:
    /// what calling the default per-property methods for every property finds.
    private func modelProblems() -> [ValidationError.Problem] {
        var problems: [ValidationError.Problem] = []
        for position in schema.validatedPositions {
            switch schema.properties[position] {
            case .attribute(let attribute):
                guard case .value(let value) = slots[position] else { continue }
                problems += ValidationRules.attributeProblems(self, attribute, value)
            case .relationship(let relationship):
                do {
                    let count: Int
                    if relationship.isToMany {
                        count = try resolvedToMany(at: position).count { !$0.deletedFlag }
                    } else {
                        count = try resolvedToOne(at: position).map { $0.deletedFlag ? 0 : 1 } ?? 0
                    }
                    problems += ValidationRules.countProblems(
                        self, relationship.relationship, count: count)
                } catch {
                    problems += validationProblems(of: error, key: relationship.relationship.name)
                }
            }
        }
        return problems
    }

    /// The problems found by calling ``validateValue(_:forKey:)`` for every attribute and
    /// to-one relationship, and ``validateObjects(_:forKey:)`` for every to-many relationship
    /// that is loaded or has count rules.
    private func propertyMethodProblems() -> [ValidationError.Problem] {
        var problems: [ValidationError.Problem] = []
        for position in schema.properties.indices {
            let name = schema.names[position]
            var value: Value
            switch schema.kinds[position] {
            case .attribute:
                guard case .value(let current) = slots[position] else { continue }
                value = current
            case .toOne:
                value = slots[position].toOneTarget.map(Value.objectID) ?? .null
            case .toMany:
                if case .toManyFault = slots[position], !schema.hasValidationRules[position] {
                    continue
                }
                do {
                    try validateObjects(try resolvedToMany(at: position), forKey: name)
                } catch {
                    problems += validationProblems(of: error, key: name)
                }
                continue
            }
            let original = value
            do { try validateValue(&value, forKey: name) } catch {
                problems += validationProblems(of: error, key: name, value: original)
            }
        }
        return problems
    }
}
