/// One column of an entity table or join table, with the role it plays.
///
/// ```swift
/// let column = layout.entity(named: "Student")?.attributeColumns["name"]
/// column?.name  // "ZNAME"
/// column?.type  // .varchar
/// ```
public struct Column: Sendable, Hashable {
    /// What a column holds.
    public enum Role: Sendable, Hashable {
        /// `Z_PK`: the row's primary key, unique in the root table.
        case primaryKey
        /// `Z_ENT`: the concrete entity's number.
        case entityNumber
        /// `Z_OPT`: the optimistic-locking version.
        case optimisticLock
        /// The value of an attribute declared by `entity`.
        case attribute(entity: String, name: String)
        /// The destination's `Z_PK` of a to-one relationship declared by `entity`.
        case foreignKey(entity: String, relationship: String)
        /// The destination's concrete `Z_ENT` of a to-one relationship (`Z<n>_<NAME>`), present
        /// when the declared destination has subentities.
        case foreignEntity(entity: String, relationship: String)
        /// The position of the row in an ordered to-many relationship whose inverse is this
        /// to-one relationship (`Z_FOK_<NAME>`).
        case orderKey(entity: String, relationship: String)
        /// A join-table column holding the `Z_PK` of an object of `entity`.
        case joinKey(entity: String)
        /// A join-table column holding a row's position in the ordered relationship
        /// `relationship` of `entity`.
        case joinOrderKey(entity: String, relationship: String)
    }

    /// The column name, unquoted (`ZNAME`).
    public let name: String
    /// The declared SQL type.
    public let type: ColumnType
    /// What the column holds.
    public let role: Role

    /// Creates a column.
    public init(name: String, type: ColumnType, role: Role) {
        self.name = name
        self.type = type
        self.role = role
    }
}
