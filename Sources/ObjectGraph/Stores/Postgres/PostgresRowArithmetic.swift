import PostgresClient

/// The SQL of a batch update's expression of each row (`score + 1`, `bytes * 2`) where
/// PostgreSQL computes exactly what the evaluator (``Arithmetic``) computes. Operands are
/// attributes of the row's own table (`Integer 16/32/64` and `Double`) and finite number
/// constants; operators `+`, `-`, `*`, `/` and negation, typed as the evaluator types them:
///
/// - Both operands integers, `+`, `-`, `*` and negation: `bigint` arithmetic (a smaller
///   column is cast up first, as the evaluator works in `Int64`). Both give the exact
///   result; where it leaves `Int64`, the evaluator throws its overflow error and PostgreSQL
///   raises SQLSTATE 22003.
/// - Otherwise (a `Double` operand, or `/`, which the evaluator always computes in floating
///   point): `double precision` arithmetic, an integer operand converted as `Double(n)` does
///   (both round to nearest). Both follow IEEE 754 with rounding to nearest. Where they part,
///   PostgreSQL raises instead of answering: an overflow to infinity or an underflow to zero
///   from finite operands (22003), a division by zero (22012).
///
/// The caller leaves the rows to the evaluator when PostgreSQL raises, and when a result is
/// NULL (a nil operand) or NaN, which the evaluator refuses or sets by its own checks.
/// `**`, Booleans, decimals, other attributes and everything else are refused (`nil`).
struct PostgresRowArithmetic {
    /// The entity whose rows are updated.
    let entity: EntitySchema
    /// Its table's layout.
    let entityLayout: EntityLayout
    /// The parameters bound so far; new ones are numbered after them.
    var parameters: [PostgresValue]

    /// How the evaluator computes a value: as `Int64` or as `Double`.
    enum Kind {
        case integer, double
    }

    /// The SQL of `expression`, a `Double` value of each row, or `nil`. An integer result is
    /// converted as the evaluator's assignment to a `Double` attribute converts it.
    mutating func double(_ expression: Expression) -> String? {
        guard let (sql, kind) = number(expression) else { return nil }
        return kind == .double ? sql : "(" + sql + ")::double precision"
    }

    /// The SQL of `expression`, an `Int64` value of each row computed in integers, or `nil`
    /// (also when the evaluator would compute it in floating point).
    mutating func integer(_ expression: Expression) -> String? {
        guard let (sql, kind) = number(expression), kind == .integer else { return nil }
        return sql
    }

    /// The SQL of `expression` and how the evaluator computes it.
    private mutating func number(_ expression: Expression) -> (sql: String, kind: Kind)? {
        switch expression {
        case .constant(.double(let number)) where number.isFinite:
            return (bind(.double(number), "double precision"), .double)
        case .constant(.integer(let number)):
            return (bind(.integer(number), "bigint"), .integer)
        case .keyPath(let path):
            guard path.components.count == 1, case .key(let name) = path.components[0],
                let position = entity.positionByName[name],
                case .attribute(let attribute) = entity.properties[position],
                !attribute.isTransient, let column = entityLayout.attributeColumns[name]
            else { return nil }
            let quoted = PostgresIdentifier.quoted(column.name)
            switch attribute.type {
            case .double: return (quoted, .double)
            case .integer16, .integer32: return ("(" + quoted + ")::bigint", .integer)
            case .integer64: return (quoted, .integer)
            default: return nil
            }
        case .negate(let operand):
            guard let (sql, kind) = number(operand) else { return nil }
            return ("(-" + sql + ")", kind)
        case .arithmetic(let left, let op, let right):
            guard op != .power, let l = number(left), let r = number(right) else { return nil }
            if op != .divide, l.kind == .integer, r.kind == .integer {
                return ("(" + l.sql + " \(op.rawValue) " + r.sql + ")", .integer)
            }
            return (
                "(" + Self.asDouble(l) + " \(op.rawValue) " + Self.asDouble(r) + ")", .double
            )
        default:
            return nil
        }
    }

    /// `operand` as `double precision`, converted from an integer as `Double(n)` converts.
    private static func asDouble(_ operand: (sql: String, kind: Kind)) -> String {
        operand.kind == .double ? operand.sql : "(" + operand.sql + ")::double precision"
    }

    /// `$n::type` for `value`, appended to the parameters.
    private mutating func bind(_ value: PostgresValue, _ type: String) -> String {
        parameters.append(value)
        return "$\(parameters.count)::" + type
    }
}
