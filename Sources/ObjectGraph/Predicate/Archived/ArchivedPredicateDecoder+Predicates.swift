import KeyedArchive

extension ArchivedPredicateDecoder {
    /// Foundation's `NSPredicateOperatorType` values.
    private static let operators: [Int64: ComparisonOperator] = [
        0: .lessThan, 1: .lessThanOrEqual, 2: .greaterThan, 3: .greaterThanOrEqual, 4: .equal,
        5: .notEqual, 6: .matches, 7: .like, 8: .beginsWith, 9: .endsWith, 10: .in,
        99: .contains, 100: .between,
    ]

    /// The predicate `value` archives.
    mutating func predicate(_ value: ArchivedValue, depth: Int) throws(ArchivedPredicateError)
        -> Predicate
    {
        let object = try self.object(value, kindOf: "NSPredicate", depth: depth)
        switch object.className {
        case "NSTruePredicate":
            return .constant(true)
        case "NSFalsePredicate":
            return .constant(false)
        case "NSCompoundPredicate", "NSComparisonPredicate":
            break
        default:
            throw ArchivedPredicateError(
                className: object.className,
                reason: "archived class \(object.className) has no ObjectGraph form")
        }
        visiting.insert(object.index)
        defer { visiting.remove(object.index) }
        if object.className == "NSCompoundPredicate" {
            return try compound(object, depth: depth)
        }
        return .comparison(try comparison(object, depth: depth))
    }

    private mutating func compound(_ object: ArchivedObject, depth: Int)
        throws(ArchivedPredicateError) -> Predicate
    {
        let type = try integer(object, "NSCompoundPredicateType")
        guard let list = try optionalField(object, "NSSubpredicates")?.elements else {
            throw mismatch(object, "NSSubpredicates", "a collection of predicates")
        }
        var terms: [Predicate] = []
        for element in list { terms.append(try predicate(element, depth: depth + 1)) }
        switch type {
        case 0: return .not(terms.count == 1 ? terms[0] : .and(terms))
        case 1: return .and(terms)
        case 2: return .or(terms)
        default:
            throw mismatch(object, "NSCompoundPredicateType", "0 (NOT), 1 (AND) or 2 (OR)")
        }
    }

    private mutating func comparison(_ object: ArchivedObject, depth: Int)
        throws(ArchivedPredicateError) -> Comparison
    {
        let left = try expression(try field(object, "NSLeftExpression"), depth: depth + 1)
        let right = try expression(try field(object, "NSRightExpression"), depth: depth + 1)
        guard case .object(let op) = try field(object, "NSPredicateOperator"),
            op.isKind(of: "NSPredicateOperator")
        else { throw mismatch(object, "NSPredicateOperator", "a predicate operator") }
        let type = try integer(op, "NSOperatorType")
        guard let comparisonOperator = Self.operators[type] else {
            throw ArchivedPredicateError(
                className: op.className,
                reason: "archived \(op.className): operator type \(type) has no ObjectGraph form"
                    + (type == 11 ? " (a custom selector)" : ""))
        }
        let modifier: ComparisonModifier
        switch try integer(op, "NSModifier") {
        case 0: modifier = .direct
        case 1: modifier = .all
        case 2: modifier = .any
        default: throw mismatch(op, "NSModifier", "0 (direct), 1 (ALL) or 2 (ANY)")
        }
        // String and `IN` operators keep their options as NSFlags, the others as NSOptions.
        let flags =
            try optionalField(op, "NSOptions") != nil
            ? try integer(op, "NSOptions") : try integer(op, "NSFlags")
        return Comparison(
            left, comparisonOperator, right, modifier: modifier,
            options: ComparisonOptions(rawValue: Int(flags & 0x0F)))
    }
}
