import PostgresClient

/// Core Data's layout (``StoreLayout``: the same tables, columns, join tables and index names)
/// as PostgreSQL DDL, with types chosen for PostgreSQL:
///
/// | Attribute | Column |
/// |---|---|
/// | Integer 16/32/64 | `smallint` / `integer` / `bigint` |
/// | Boolean | `boolean` |
/// | Decimal | `numeric` (exact, where SQLite keeps a double) |
/// | Double, Float | `double precision` |
/// | Date | `double precision`, seconds since 2001-01-01 UTC (as Core Data's SQLite files) |
/// | String, URI | `text` |
/// | UUID | `uuid` |
/// | Binary, Transformable | `bytea` |
///
/// `Z_PK`, foreign keys and order keys are `bigint`, `Z_ENT` and entity columns `integer`,
/// `Z_OPT` `bigint`. Uniqueness constraints are deferrable table constraints, checked at
/// commit (so values swapped between rows in one save pass, as on SQLite).
///
/// A fetch index (or an indexed attribute) orders its elements nil first, as fetches sort;
/// on a UTF-8 server a string attribute's element is the expression
/// `(normalize("ZNAME", NFC) COLLATE "C")` (ASCII texts not normalized:
/// `SQLPredicateTranslator.postgresNFCExpression`), the text the PostgreSQL compiler compares and
/// sorts strings by (see `SQLPredicateTranslator+PostgresText.swift`), so the index serves
/// those comparisons, prefix ranges and orders. A fetch index ends in `Z_PK`, as the ORDER BY
/// of a sorted fetch does. Uniqueness constraints stay on the columns.
///
/// ```swift
/// let ddl = PostgresSchemaDDL(layout: layout, schema: schema)
/// for statement in ddl.createStatements(byteOrderCollation: " COLLATE \"C\"") {
///     try connection.run(statement)
/// }
/// ```
struct PostgresSchemaDDL {
    /// A model uniqueness constraint as the table constraint enforcing it.
    struct UniqueConstraint: Hashable {
        /// The constraint's name (`Z_Person_UNIQUE_email`, or a numbered name when longer
        /// than PostgreSQL's 63 bytes).
        let name: String
        let table: String
        let columns: [String]
        /// The entity declaring it and its properties.
        let entity: String
        let properties: [String]
    }

    let layout: StoreLayout
    let schema: ModelSchema
    /// The model's uniqueness constraints that have columns.
    let uniqueConstraints: [UniqueConstraint]

    init(layout: StoreLayout, schema: ModelSchema) {
        self.layout = layout
        self.schema = schema
        var constraints: [UniqueConstraint] = []
        var names: Set<String> = []
        for entity in schema.entities {
            guard let entityLayout = layout.entity(named: entity.name) else { continue }
            for properties in entity.entity.uniquenessConstraints {
                let columns = properties.compactMap { Self.column(of: $0, in: entityLayout) }
                guard !columns.isEmpty, columns.count == properties.count else { continue }
                var name = "Z_\(entity.name)_UNIQUE_" + properties.joined(separator: "_")
                if name.utf8.count > 63 || names.contains(name) {
                    name = "Z_\(entityLayout.entityNumber)_UNIQUE_\(constraints.count + 1)"
                }
                names.insert(name)
                constraints.append(
                    UniqueConstraint(
                        name: name, table: entityLayout.tableName, columns: columns,
                        entity: entity.name, properties: properties))
            }
        }
        uniqueConstraints = constraints
    }

    /// Every statement creating the store's tables and indexes, in order (run them in one
    /// transaction, in the store's schema). `byteOrderCollation` is the store's
    /// (``SQLQueryCompiler/byteOrderCollation``): nil on a server that may not be UTF-8, where
    /// string elements of fetch indexes stay plain columns.
    func createStatements(byteOrderCollation: String? = nil) -> [String] {
        var statements = [
            "CREATE TABLE \"Z_PRIMARYKEY\" (\"Z_ENT\" integer PRIMARY KEY, \"Z_NAME\" text,"
                + " \"Z_SUPER\" integer, \"Z_MAX\" bigint NOT NULL DEFAULT 0)",
            "CREATE TABLE \"Z_METADATA\" (\"Z_VERSION\" integer PRIMARY KEY, \"Z_UUID\" text,"
                + " \"Z_PLIST\" bytea)",
        ]
        for table in layout.tables {
            var items = table.columns.map { column in
                PostgresIdentifier.quoted(column.name) + " " + columnType(of: column)
            }
            for constraint in uniqueConstraints where constraint.table == table.name {
                items.append(
                    "CONSTRAINT \(PostgresIdentifier.quoted(constraint.name)) UNIQUE ("
                        + constraint.columns.map(PostgresIdentifier.quoted).joined(
                            separator: ", ") + ") DEFERRABLE INITIALLY DEFERRED")
            }
            statements.append(
                "CREATE TABLE \(PostgresIdentifier.quoted(table.name)) ("
                    + items.joined(separator: ", ") + ")")
        }
        for join in layout.joinTables {
            let columns = join.columns.map {
                PostgresIdentifier.quoted($0.name) + " bigint"
                    + (isJoinKey($0) ? " NOT NULL" : "")
            }
            statements.append(
                "CREATE TABLE \(PostgresIdentifier.quoted(join.name)) ("
                    + columns.joined(separator: ", ") + ", PRIMARY KEY ("
                    + PostgresIdentifier.quoted(join.ownerColumn) + ", "
                    + PostgresIdentifier.quoted(join.destinationColumn) + "))")
        }
        var indexNames: Set<String> = Set(uniqueConstraints.map(\.name))
        for index in layout.indexes where !index.isUnique {
            var name = index.name
            if name.utf8.count > 63 || indexNames.contains(name) {
                name = "Z_INDEX_\(indexNames.count + 1)"
            }
            indexNames.insert(name)
            var elements = index.elements.map { element in
                indexElement(element, of: index, byteOrderCollation: byteOrderCollation)
            }
            // Fetches end their order in `Z_PK` (ties in key order): a fetch index ending in it
            // too gives a sorted, limited fetch its rows in order, with no sort of ties (as
            // SQLite's indexes end in the row ID).
            if index.purpose == .fetchIndex
                && !index.elements.contains(where: { $0.column == "Z_PK" })
            {
                elements.append("\"Z_PK\"")
            }
            statements.append(
                "CREATE INDEX \(PostgresIdentifier.quoted(name)) ON "
                    + PostgresIdentifier.quoted(index.table) + " ("
                    + elements.joined(separator: ", ") + ")")
        }
        return statements
    }

    /// One element of `index`: a fetch index's (``IndexLayout/Element/isCollated``) sorted
    /// nil first, a string attribute's as its NFC text in byte order when
    /// `byteOrderCollation` is given.
    private func indexElement(
        _ element: IndexLayout.Element, of index: IndexLayout, byteOrderCollation: String?
    ) -> String {
        let name = PostgresIdentifier.quoted(element.column)
        guard element.isCollated else { return name + (element.isAscending ? "" : " DESC") }
        var key = name
        if let collation = byteOrderCollation,
            let column = layout.table(named: index.table)?.columns.first(where: {
                $0.name == element.column
            }),
            case .attribute(let entity, let attribute) = column.role,
            attributeType(entity: entity, name: attribute) == .string
        {
            key =
                "(" + SQLPredicateTranslator.postgresNFCExpression(SQLPiece(name)).sql
                + collation + ")"
        }
        return key + (element.isAscending ? " ASC NULLS FIRST" : " DESC NULLS FIRST")
    }

    /// The PostgreSQL type of `column` (see the table above).
    func columnType(of column: Column) -> String {
        switch column.role {
        case .primaryKey: return "bigint PRIMARY KEY"
        case .entityNumber: return "integer NOT NULL"
        case .optimisticLock, .foreignKey, .orderKey, .joinKey, .joinOrderKey: return "bigint"
        case .foreignEntity: return "integer"
        case .attribute(let entity, let name):
            if let attributeType = attributeType(entity: entity, name: name) {
                return Self.columnType(of: attributeType)
            }
            switch column.type {
            case .integer: return "bigint"
            case .decimal: return "numeric"
            case .float, .timestamp: return "double precision"
            case .varchar: return "text"
            case .blob: return "bytea"
            }
        }
    }

    /// The column type of an attribute of `type`.
    static func columnType(of type: AttributeType) -> String {
        switch type {
        case .integer16: return "smallint"
        case .integer32: return "integer"
        case .integer64: return "bigint"
        case .boolean: return "boolean"
        case .decimal: return "numeric"
        case .double, .float, .date: return "double precision"
        case .uuid: return "uuid"
        case .binary, .transformable: return "bytea"
        case .string, .uri, .undefined, .objectID, .composite, .unknown: return "text"
        }
    }

    private func attributeType(entity: String, name: String) -> AttributeType? {
        guard let entitySchema = schema.entity(named: entity),
            let position = entitySchema.positionByName[name]
        else { return nil }
        return entitySchema.attributeTypes[position]
    }

    private func isJoinKey(_ column: Column) -> Bool {
        if case .joinKey = column.role { return true }
        return false
    }

    /// The column of attribute or to-one relationship `property` in `layout`.
    static func column(of property: String, in layout: EntityLayout) -> String? {
        if let column = layout.attributeColumns[property] { return column.name }
        if case .foreignKey(_, let column, _)? = layout.relationships[property] { return column }
        return nil
    }
}
