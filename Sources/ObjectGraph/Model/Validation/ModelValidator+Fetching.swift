extension ModelValidator {
    /// `unknown-fetch-entity` and `invalid-predicate` for the fetched properties of `entity`.
    mutating func checkFetchedProperties(of entity: Entity) {
        for fetched in entity.fetchedProperties {
            let request = fetched.fetchRequest
            let location = fetched.location ?? request.location
            let what = "fetched property '\(entity.name).\(fetched.name)'"
            if model.entity(named: request.entityName) == nil {
                report(
                    .unknownFetchEntity,
                    "\(what) fetches an unknown entity '\(request.entityName)'",
                    at: location, entity: entity.name, property: fetched.name)
            }
            checkPredicate(
                request.predicateString, of: what, at: location, entity: entity.name,
                property: fetched.name)
        }
    }

    /// `duplicate-fetch-template`, `unknown-fetch-entity` and `invalid-predicate` for the
    /// model's fetch request templates.
    mutating func checkFetchTemplates() {
        var seen: Set<String> = []
        for template in model.fetchTemplates {
            let what = "fetch request template '\(template.name)'"
            if !seen.insert(template.name).inserted {
                report(
                    .duplicateFetchTemplate, "\(what) is declared more than once",
                    at: template.location)
            }
            if model.entity(named: template.entityName) == nil {
                report(
                    .unknownFetchEntity,
                    "\(what) fetches an unknown entity '\(template.entityName)'",
                    at: template.location, entity: template.entityName)
            }
            checkPredicate(
                template.predicateString, of: what, at: template.location,
                entity: template.entityName, property: nil)
        }
    }

    /// `duplicate-configuration`, `unknown-configuration-entity` and
    /// `duplicate-configuration-entity`.
    mutating func checkConfigurations() {
        var seen: Set<String> = []
        for configuration in model.configurations {
            let what = "configuration '\(configuration.name)'"
            if !seen.insert(configuration.name).inserted {
                report(
                    .duplicateConfiguration, "\(what) is declared more than once",
                    at: configuration.location)
            }
            var members: Set<String> = []
            for name in configuration.entityNames {
                if model.entity(named: name) == nil {
                    report(
                        .unknownConfigurationEntity, "\(what) names an unknown entity '\(name)'",
                        at: configuration.location, entity: name)
                } else if !members.insert(name).inserted {
                    report(
                        .duplicateConfigurationEntity, "\(what) lists entity '\(name)' twice",
                        at: configuration.location, entity: name)
                }
            }
        }
    }

    /// `unknown-composite` for composite attributes inside composites.
    mutating func checkComposites() {
        let names = Set(model.composites.map(\.name))
        for composite in model.composites {
            for attribute in composite.attributes where attribute.type == .composite {
                guard let target = attribute.compositeName, !names.contains(target) else {
                    continue
                }
                report(
                    .unknownComposite,
                    "attribute '\(composite.name).\(attribute.name)' names an unknown composite "
                        + "type '\(target)'",
                    at: attribute.location ?? composite.location, property: attribute.name)
            }
        }
    }

    /// `invalid-predicate`: the predicate must parse (through the predicate parser's hook).
    private mutating func checkPredicate(
        _ predicate: String?, of what: String, at location: SourceLocation?, entity: String?,
        property: String?
    ) {
        guard let predicate, let problem = predicateSyntaxError(in: predicate) else { return }
        report(
            .invalidPredicate,
            "predicate of \(what) does not parse at offset \(problem.offset): \(problem.message)",
            at: location, entity: entity, property: property)
    }
}
