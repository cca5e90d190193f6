/// Where the values of one relationship live in Core Data's SQLite layout.
///
/// ```swift
/// switch layout.entity(named: "Course")?.relationships["teacher"] {
/// case .foreignKey(let table, let column, _)?: print(table, column)  // ZCOURSE ZTEACHER
/// default: break
/// }
/// ```
public enum RelationshipStorage: Sendable, Hashable {
    /// A to-one relationship: `column` of the owner's row in `table` holds the destination's
    /// `Z_PK`; `entityColumn`, when present, holds the destination's concrete `Z_ENT`.
    case foreignKey(table: String, column: String, entityColumn: String?)
    /// A to-many relationship whose inverse is to-one: the destination rows in `table` point
    /// back through `column` (and `entityColumn`); `orderColumn` holds their positions when the
    /// relationship is ordered.
    case inverseForeignKey(
        table: String, column: String, entityColumn: String?, orderColumn: String?)
    /// A many-to-many relationship, or a to-many relationship without an inverse: rows of
    /// `table` pair the owner's `Z_PK` (`ownerColumn`) with a destination's `Z_PK`
    /// (`destinationColumn`); `orderColumn` holds positions when the relationship is ordered.
    /// The two sides of a pair see the same table with the columns swapped. A self-inverse
    /// relationship (`friends` ↔ `friends`) has one table whose rows may name the owner in
    /// either column: read both directions.
    case joinTable(
        table: String, ownerColumn: String, destinationColumn: String, orderColumn: String?)
}
