import SQLiteDatabase

/// The table of one inheritance tree: `Z` + the upper-cased root entity name, holding the rows
/// of the root and of every subentity.
///
/// ```swift
/// let table = layout.table(named: "ZPERSON")
/// table?.columns.map(\.name)  // ["Z_PK", "Z_ENT", "Z_OPT", "ZBIRTHDAY", …]
/// ```
public struct EntityTableLayout: Sendable, Hashable {
    /// The table name (`ZPERSON`).
    public let name: String
    /// The root entity's name.
    public let rootEntity: String
    /// The numbers of the entities stored in it, ascending.
    public let entityNumbers: [Int]
    /// Every column in `CREATE TABLE` order: `Z_PK`, `Z_ENT`, `Z_OPT`, then the property
    /// columns grouped by type (§6.5).
    public let columns: [Column]

    /// The column named `name`.
    public func column(named name: String) -> Column? {
        columns.first { $0.name == name }
    }

    /// The `Z_ENT` of every row when the table holds one entity only (`nil` otherwise).
    public var soleEntityNumber: Int? {
        entityNumbers.count == 1 ? entityNumbers.first : nil
    }

    /// The column `name` of the row aliased `t0`, as a fetch selects it: `t0."name"`, except
    /// the `Z_ENT` of a table holding one entity, which is that constant (as Core Data's
    /// `SELECT 0, t0.Z_PK, …`; SQLite computes it once).
    func selectedColumn(_ name: String) -> String {
        if name == "Z_ENT", let soleEntityNumber { return "\(soleEntityNumber) AS \"Z_ENT\"" }
        return "t0." + quoteIdentifier(name)
    }
}
