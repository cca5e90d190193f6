/// An index Core Data creates on a store's tables (modern, fetch-index style; §8).
///
/// ```swift
/// for index in layout.indexes { print(index.name, index.table, index.isUnique) }
/// ```
public struct IndexLayout: Sendable, Hashable {
    /// One indexed column.
    public struct Element: Sendable, Hashable {
        /// The column name.
        public let column: String
        /// Whether the element is written `COLLATE BINARY ASC`/`DESC` (fetch indexes and
        /// uniqueness constraints) rather than bare (foreign keys, `Z_ENT`, join tables).
        public let isCollated: Bool
        /// Whether the element sorts ascending (only written when ``isCollated``).
        public let isAscending: Bool

        /// Creates an element.
        public init(column: String, isCollated: Bool = false, isAscending: Bool = true) {
            self.column = column
            self.isCollated = isCollated
            self.isAscending = isAscending
        }
    }

    /// What an index is for.
    public enum Purpose: Sendable, Hashable {
        /// A to-one foreign key column (`<TABLE>_<COLUMN>_INDEX`).
        case foreignKey
        /// The `Z_ENT` column of a root table with subentities (`<TABLE>_Z_ENT_INDEX`).
        case entityNumber
        /// A join table's second column (`<TABLE>_<COLUMN>_INDEX`).
        case joinTable
        /// A fetch index, indexed attribute or compound index (`Z_<Entity>_<name>`).
        case fetchIndex
        /// A uniqueness constraint (`Z_<Entity>_UNIQUE_<a>_<b>`).
        case uniquenessConstraint
    }

    /// The index name, unquoted.
    public let name: String
    /// The indexed table.
    public let table: String
    /// The indexed columns in order.
    public let elements: [Element]
    /// Whether the index is `UNIQUE`.
    public let isUnique: Bool
    /// What the index is for.
    public let purpose: Purpose

    /// Creates an index.
    public init(
        name: String, table: String, elements: [Element], isUnique: Bool = false,
        purpose: Purpose
    ) {
        self.name = name
        self.table = table
        self.elements = elements
        self.isUnique = isUnique
        self.purpose = purpose
    }
}
