import Foundation

extension ModelValidator {
    /// The attribute rules: type, composite, default value, minimum and maximum, regular
    /// expression, derivation.
    mutating func checkAttribute(_ attribute: Attribute, of entity: Entity) {
        let name = attribute.name
        let location = attribute.location
        switch attribute.type {
        case .unknown(let spelling):
            report(
                .unknownAttributeType,
                "attribute '\(entity.name).\(name)' has unknown type '\(spelling)'",
                at: location, entity: entity.name, property: name)
        case .undefined where !attribute.isTransient:
            report(
                .missingAttributeType,
                "attribute '\(entity.name).\(name)' has no type; only transient attributes "
                    + "may be Undefined",
                at: location, entity: entity.name, property: name)
        case .composite:
            if let composite = attribute.compositeName,
                !model.composites.contains(where: { $0.name == composite })
            {
                report(
                    .unknownComposite,
                    "attribute '\(entity.name).\(name)' names an unknown composite type "
                        + "'\(composite)'",
                    at: location, entity: entity.name, property: name)
            }
        default:
            break
        }
        checkDefaultValue(of: attribute, in: entity)
        checkMinMax(of: attribute, in: entity)
        checkRegularExpression(of: attribute, in: entity)
        checkDerivation(of: attribute, in: entity)
    }

    /// `invalid-regular-expression`: the pattern must compile.
    private mutating func checkRegularExpression(of attribute: Attribute, in entity: Entity) {
        guard let pattern = attribute.regularExpression else { return }
        do {
            _ = try NSRegularExpression(pattern: pattern)
        } catch {
            report(
                .invalidRegularExpression,
                "attribute '\(entity.name).\(attribute.name)' has a regular expression that "
                    + "does not compile: \(Self.quoted(pattern))",
                at: attribute.location, entity: entity.name, property: attribute.name)
        }
    }

    /// `missing-derivation-expression` and `invalid-derivation-expression`.
    private mutating func checkDerivation(of attribute: Attribute, in entity: Entity) {
        guard attribute.isDerived else { return }
        let name = attribute.name
        guard let expression = attribute.derivationExpression,
            !expression.trimmingCharacters(in: .whitespaces).isEmpty
        else {
            report(
                .missingDerivationExpression,
                "derived attribute '\(entity.name).\(name)' has no derivation expression",
                at: attribute.location, entity: entity.name, property: name)
            return
        }
        if let problem = expressionSyntaxError(in: expression) {
            report(
                .invalidDerivationExpression,
                "derivation expression of '\(entity.name).\(name)' does not parse at offset "
                    + "\(problem.offset): \(problem.message)",
                at: attribute.location, entity: entity.name, property: name)
        }
    }
}
