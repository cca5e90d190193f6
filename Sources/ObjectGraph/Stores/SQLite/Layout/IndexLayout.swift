/// An index Core Data creates on a store's tables, or a uniqueness constraint it declares
/// inside `CREATE TABLE` in older styles (see ``SchemaStyle``; research notes §8).
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

    /// Where the schema declares an index.
    public enum Declaration: Sendable, Hashable {
        /// A `CREATE [UNIQUE] INDEX` statement of its own.
        case index
        /// A table constraint at the end of `CREATE TABLE`: `CONSTRAINT <name> UNIQUE (…)`.
        case tableConstraint
        /// `UNIQUE` after the column's type in `CREATE TABLE` (one column only).
        case columnConstraint
    }

    /// The index name, unquoted (the constraint name for a table constraint).
    public let name: String
    /// The indexed table.
    public let table: String
    /// The indexed columns in order.
    public let elements: [Element]
    /// Whether the index is `UNIQUE`.
    public let isUnique: Bool
    /// What the index is for.
    public let purpose: Purpose
    /// Where the schema declares it; SQLite names the index behind a constraint
    /// `sqlite_autoindex_<table>_<n>`.
    public let declaration: Declaration

    /// Creates an index.
    public init(
        name: String, table: String, elements: [Element], isUnique: Bool = false,
        purpose: Purpose, declaration: Declaration = .index
    ) {
        self.name = name
        self.table = table
        self.elements = elements
        self.isUnique = isUnique
        self.purpose = purpose
        self.declaration = declaration
    }
}
