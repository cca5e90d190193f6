/// The SQL that converts a source column's stored value to what a destination attribute of
/// another type stores (the attribute type changes an inferred mapping accepts), so a
/// conversion runs inside `INSERT … SELECT` with nothing done per row in Swift.
///
/// | From → to | SQL |
/// |---|---|
/// | same column type (Integer widths, Double/Float/Decimal, String/URI) | the value |
/// | Integer ↔ Double/Float/Decimal | `CAST(v AS REAL)` / `CAST(v AS INTEGER)` (truncates) |
/// | Boolean → Integer | the value (0/1) |
/// | Integer → Boolean | `CASE WHEN v IS NULL THEN NULL WHEN v <> 0 THEN 1 ELSE 0 END` |
/// | numbers, Boolean → String | `CAST(v AS TEXT)` |
/// | String → Integer, Double/Float/Decimal | `CAST(v AS INTEGER)` / `CAST(v AS REAL)` |
///
/// Narrowing integers (64 → 16 say) copies the value; ``rangeCheck(_:to:)`` gives the SQL
/// that finds the rows whose value does not fit, checked before the copy.
enum SQLiteValueConversionSQL {
    /// `value` (a SQL expression of a column of type `from`) as type `to`, or `nil` when the
    /// change is not one a lightweight migration converts.
    static func convert(_ value: String, from: AttributeType, to: AttributeType) -> String? {
        if from == to { return value }
        switch (family(from), family(to)) {
        case (.integer, .integer), (.real, .real), (.text, .text), (.boolean, .integer):
            return value
        case (.integer, .real), (.text, .real):
            return "CAST(\(value) AS REAL)"
        case (.real, .integer), (.text, .integer):
            return "CAST(\(value) AS INTEGER)"
        case (.integer, .boolean), (.real, .boolean):
            return "CASE WHEN \(value) IS NULL THEN NULL WHEN \(value) <> 0 THEN 1 ELSE 0 END"
        case (.integer, .text), (.real, .text), (.boolean, .text):
            return "CAST(\(value) AS TEXT)"
        default:
            return nil
        }
    }

    /// A condition true for stored values that do not fit in `to` when `from` is wider
    /// (integer narrowing), `nil` when every value fits.
    static func rangeCheck(_ value: String, from: AttributeType, to: AttributeType) -> String? {
        guard family(to) == .integer, to != .integer64, let range = to.integerRange else {
            return nil
        }
        if family(from) == .integer, let wide = from.integerRange,
            wide.lowerBound >= range.lowerBound && wide.upperBound <= range.upperBound
        {
            return nil
        }
        guard [.integer, .real, .text].contains(family(from)) else { return nil }
        let converted = convert(value, from: from, to: to) ?? value
        return
            "\(converted) NOT BETWEEN \(range.lowerBound) AND \(range.upperBound)"
    }

    private enum Family { case integer, real, text, boolean, other }

    private static func family(_ type: AttributeType) -> Family {
        switch type {
        case .integer16, .integer32, .integer64: return .integer
        case .double, .float, .decimal: return .real
        case .string, .uri: return .text
        case .boolean: return .boolean
        default: return .other
        }
    }
}
