/// The SQL that converts a source column's stored value to what a destination attribute of
/// another type stores — the conversions of the inference's table ("B: type conversions" in
/// the migration contract) — so a conversion runs inside `INSERT … SELECT` with nothing done
/// per row in Swift.
///
/// | From → to | SQL |
/// |---|---|
/// | Integer → Integer, Boolean → Integer, Double/Float/Decimal among themselves | the value |
/// | Integer, Boolean → Double/Float/Decimal | `CAST(v AS REAL)` |
/// | Double/Float/Decimal → Integer | `CAST(v AS INTEGER)` (truncates toward zero) |
/// | Integer, Double/Float/Decimal → Boolean | `CASE WHEN v IS NULL THEN NULL WHEN v <> 0 THEN 1 ELSE 0 END` |
/// | Integer, Boolean → String | `CAST(v AS TEXT)` (`-42`, `0`/`1`) |
///
/// Every other change of type is not inferable (`nil`). Values a conversion cannot keep
/// (integers outside a narrower type, reals outside the destination's range or beyond
/// Float's) are found first by ``outOfRange(_:from:to:)``.
enum SQLiteValueConversionSQL {
    /// `value` (a SQL expression of a column of type `from`) as type `to`, or `nil` when the
    /// change is not one a lightweight migration converts.
    static func convert(_ value: String, from: AttributeType, to: AttributeType) -> String? {
        if from == to { return value }
        switch (family(from), family(to)) {
        case (.integer, .integer), (.real, .real), (.boolean, .integer):
            return value
        case (.integer, .real), (.boolean, .real):
            return "CAST(\(value) AS REAL)"
        case (.real, .integer):
            return "CAST(\(value) AS INTEGER)"
        case (.integer, .boolean), (.real, .boolean):
            return "CASE WHEN \(value) IS NULL THEN NULL WHEN \(value) <> 0 THEN 1 ELSE 0 END"
        case (.integer, .text), (.boolean, .text):
            return "CAST(\(value) AS TEXT)"
        default:
            return nil
        }
    }

    /// A condition true for stored values the conversion cannot keep, `nil` when every value
    /// fits: integers outside a narrower integer type, reals outside the destination integer
    /// type's range, finite reals beyond Float's range.
    static func outOfRange(_ value: String, from: AttributeType, to: AttributeType) -> String? {
        switch (family(from), family(to)) {
        case (.integer, .integer):
            guard let range = to.integerRange, let wide = from.integerRange,
                wide.lowerBound < range.lowerBound || wide.upperBound > range.upperBound
            else { return nil }
            return "\(value) NOT BETWEEN \(range.lowerBound) AND \(range.upperBound)"
        case (.real, .integer):
            guard let range = to.integerRange else { return nil }
            return
                "\(value) NOT BETWEEN \(Double(range.lowerBound)) AND \(Double(range.upperBound))"
        case (.real, .real) where to == .float && from != .float:
            return "ABS(\(value)) > \(Double(Float.greatestFiniteMagnitude))"
        default:
            return nil
        }
    }

    private enum Family { case integer, real, text, boolean, other }

    private static func family(_ type: AttributeType) -> Family {
        switch type {
        case .integer16, .integer32, .integer64: return .integer
        case .double, .float, .decimal: return .real
        case .string: return .text
        case .boolean: return .boolean
        default: return .other
        }
    }
}
