/// Arithmetic compiled to SQLite's own operators where they give exactly what
/// `og_arithmetic` (`Arithmetic.apply`) gives, so a batch update or a predicate skips a call
/// into Swift per row:
///
/// - An operand that is always REAL (``SQLFragment/isReal``) makes SQLite compute `+`, `-`,
///   `*` and `/` in floating point, converting an integer operand as `Double(n)` does, as the
///   evaluator does; a NULL operand gives NULL, and a NaN result is NULL, as `og_arithmetic`
///   returns it. Division by zero, which the evaluator refuses and SQLite makes NULL, is
///   guarded: a divisor that is not a non-zero constant goes to `og_arithmetic` when it is 0
///   (which throws, as the evaluator does).
/// - Integer `x + c` and `x - c` (a column and a constant) are SQLite's integer `+`/`-` except
///   where they overflow (SQLite then gives a REAL, the evaluator an error): those values of
///   `x` go to `og_arithmetic`.
///
/// Everything else (`**`, integer `*` and `/`, integer arithmetic of two columns) stays with
/// `og_arithmetic`.
enum SQLNativeArithmetic {
    /// `l op r` in SQLite's operators, or `nil` when they could differ from the evaluator.
    static func apply(_ op: ArithmeticOperator, _ l: SQLFragment, _ r: SQLFragment)
        -> SQLFragment?
    {
        guard l.kind == .number, r.kind == .number else { return nil }
        if l.isReal || r.isReal { return real(op, l, r) }
        if l.isInteger, r.isInteger { return integer(op, l, r) }
        return nil
    }

    /// A left-to-right chain `((a op₁ b) op₂ c) …` in SQLite's operators, or `nil` when one
    /// of its steps could differ from the evaluator.
    static func chain(_ operators: [ArithmeticOperator], _ operands: [SQLFragment])
        -> SQLFragment?
    {
        guard operands.count == operators.count + 1, var result = operands.first else {
            return nil
        }
        for (op, operand) in zip(operators, operands.dropFirst()) {
            guard let next = apply(op, result, operand) else { return nil }
            result = next
        }
        return result
    }

    /// Floating-point `l op r` (one operand always REAL).
    private static func real(_ op: ArithmeticOperator, _ l: SQLFragment, _ r: SQLFragment)
        -> SQLFragment?
    {
        let piece: SQLPiece
        switch op {
        case .add, .subtract, .multiply:
            piece = "(" + l.piece + " \(op.rawValue) " + r.piece + ")"
        case .divide:
            if let divisor = constantNumber(r), divisor != 0 {
                piece = "(" + l.piece + " / " + r.piece + ")"
            } else if l.isSimple, r.isSimple {
                // A zero divisor reaches og_arithmetic, which refuses it as the evaluator does.
                piece =
                    "(CASE WHEN " + r.piece + " = 0 THEN " + evaluated(.divide, l, r) + " ELSE "
                    + l.piece + " / " + r.piece + " END)"
            } else {
                return nil
            }
        case .power:
            return nil
        }
        var result = SQLFragment(piece, kind: .number, nullable: true)
        result.isReal = true
        result.mayBeNaN = true
        return result
    }

    /// Integer `x + c`, `c + x` or `x - c` for a column (or bound value) `x` and a constant
    /// `c`: SQLite's operator except for the values of `x` where it overflows.
    private static func integer(_ op: ArithmeticOperator, _ l: SQLFragment, _ r: SQLFragment)
        -> SQLFragment?
    {
        let x: SQLFragment
        let c: Int64
        switch op {
        case .add:
            if let constant = constantInteger(r), l.isSimple {
                (x, c) = (l, constant)
            } else if let constant = constantInteger(l), r.isSimple {
                (x, c) = (r, constant)
            } else {
                return nil
            }
        case .subtract:
            guard let constant = constantInteger(r), l.isSimple else { return nil }
            (x, c) = (l, constant)
        default:
            return nil
        }
        // x + c overflows above max - c (c ≥ 0) or below min - c (c < 0); x - c overflows
        // below min + c (c ≥ 0) or above max + c (c < 0).
        let guardPiece: SQLPiece
        switch (op, c >= 0) {
        case (.add, true): guardPiece = x.piece + " > " + .bound(.integer(Int64.max - c))
        case (.add, false): guardPiece = x.piece + " < " + .bound(.integer(Int64.min - c))
        case (_, true): guardPiece = x.piece + " < " + .bound(.integer(Int64.min + c))
        case (_, false): guardPiece = x.piece + " > " + .bound(.integer(Int64.max + c))
        }
        var result = SQLFragment(
            "(CASE WHEN " + guardPiece + " THEN " + evaluated(op, l, r) + " ELSE " + l.piece
                + " \(op.rawValue) " + r.piece + " END)",
            kind: .number, nullable: true)
        result.isInteger = true
        return result
    }

    /// `og_arithmetic(op, l, r)`.
    private static func evaluated(_ op: ArithmeticOperator, _ l: SQLFragment, _ r: SQLFragment)
        -> SQLPiece
    {
        SQLPiece("\(SQLFunctions.arithmetic)(")
            + SQLPiece.bound(.integer(SQLFunctions.arithmeticCode(op))) + ", " + l.piece + ", "
            + r.piece + ")"
    }

    /// The value of a bound integer constant.
    private static func constantInteger(_ fragment: SQLFragment) -> Int64? {
        guard fragment.piece.sql == "?", case .integer(let n)? = fragment.piece.arguments.first
        else { return nil }
        return n
    }

    /// The value of a bound number constant.
    private static func constantNumber(_ fragment: SQLFragment) -> Double? {
        guard fragment.piece.sql == "?" else { return nil }
        switch fragment.piece.arguments.first {
        case .integer(let n)?: return Double(n)
        case .real(let d)?: return d
        default: return nil
        }
    }
}
