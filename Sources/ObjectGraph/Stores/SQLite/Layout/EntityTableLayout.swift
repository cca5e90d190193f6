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
}
