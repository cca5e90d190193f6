import PostgresClient

/// The SQL of a batch update's expression of each row (`score + 1`) where PostgreSQL computes
/// exactly what the evaluator (``Arithmetic``) computes: floating-point `+`, `-`, `*`, `/` and
/// negation, each step with at least one operand a `Double` attribute of the row's own table
/// or a double constant (so the evaluator works in `Double` too), the other such an operand
/// or an integer constant, bound as `Double(n)`, as the evaluator converts it. Both follow
/// IEEE 754 with rounding to nearest. Where they part, PostgreSQL raises instead of answering:
/// an overflow to infinity or an underflow to zero from finite operands (SQLSTATE 22003),
/// a division by zero (22012), which the caller then leaves to the evaluator; a NULL or NaN
/// result, which the evaluator refuses or sets with its own checks, is found by the caller
/// too. Integer arithmetic (the evaluator's overflow is an error, PostgreSQL's a different
/// one) and everything else are refused (`nil`).
struct PostgresRowArithmetic {
    /// The entity whose rows are updated.
    let entity: EntitySchema
    /// Its table's layout.
    let entityLayout: EntityLayout
    /// The parameters bound so far; new ones are numbered after them.
    var parameters: [PostgresValue]

    /// The SQL of `expression`, a `Double` value of each row, or `nil`.
    mutating func double(_ expression: Expression) -> String? {
        guard let (sql, isDouble) = number(expression), isDouble else { return nil }
        return sql
    }

    /// The SQL of `expression` and whether the evaluator computes it as a `Double` (else it
    /// is an integer constant).
    private mutating func number(_ expression: Expression) -> (sql: String, isDouble: Bool)? {
        switch expression {
        case .constant(.double(let number)) where number.isFinite:
            return (bind(number), true)
        case .constant(.integer(let number)):
            return (bind(Double(number)), false)
        case .keyPath(let path):
            guard path.components.count == 1, case .key(let name) = path.components[0],
                let position = entity.positionByName[name],
                case .attribute(let attribute) = entity.properties[position],
                attribute.type == .double, !attribute.isTransient,
                let column = entityLayout.attributeColumns[name]
            else { return nil }
            return (PostgresIdentifier.quoted(column.name), true)
        case .negate(let operand):
            guard let (sql, isDouble) = number(operand), isDouble else { return nil }
            return ("(-" + sql + ")", true)
        case .arithmetic(let left, let op, let right):
            guard op != .power, let (l, leftIsDouble) = number(left),
                let (r, rightIsDouble) = number(right), leftIsDouble || rightIsDouble
            else { return nil }
            return ("(" + l + " \(op.rawValue) " + r + ")", true)
        default:
            return nil
        }
    }

    /// `$n::double precision` for `number`, appended to the parameters.
    private mutating func bind(_ number: Double) -> String {
        parameters.append(.double(number))
        return "$\(parameters.count)::double precision"
    }
}
