import SQLiteDatabase

/// The SQL that creates a store's schema, character for character as Core Data writes it:
/// identifiers bare (`CREATE TABLE ZPERSON ( Z_PK INTEGER PRIMARY KEY, … )`) when SQLite reads
/// them as plain names, quoted with embedded `"` doubled otherwise (``schemaIdentifier(_:)``);
/// no value appears in the text.
extension StoreLayout {
    /// Core Data's `Z_PRIMARYKEY` table, exactly as Apple writes it (§4).
    public static let primaryKeyTableSQL =
        "CREATE TABLE Z_PRIMARYKEY (Z_ENT INTEGER PRIMARY KEY, Z_NAME VARCHAR, Z_SUPER INTEGER, Z_MAX INTEGER)"
    /// Core Data's `Z_METADATA` table, exactly as Apple writes it.
    public static let metadataTableSQL =
        "CREATE TABLE Z_METADATA (Z_VERSION INTEGER PRIMARY KEY, Z_UUID VARCHAR(255), Z_PLIST BLOB)"
    /// Core Data's `Z_MODELCACHE` table, exactly as Apple writes it.
    public static let modelCacheTableSQL = "CREATE TABLE Z_MODELCACHE (Z_CONTENT BLOB)"

    /// Every statement that creates the schema, in Core Data's order: entity by entity its
    /// table (roots) and the join tables of its relationships, then the indexes, then
    /// `Z_PRIMARYKEY`, `Z_METADATA` and `Z_MODELCACHE` (unless `includingModelCache` is
    /// false). Rows (`Z_PRIMARYKEY`, `Z_METADATA`) are the store's to insert.
    ///
    /// ```swift
    /// for sql in try StoreLayout(model: model).createStatements() {
    ///     try db.execute(sql: sql)
    /// }
    /// ```
    public func createStatements(includingModelCache: Bool = true) -> [String] {
        var statements: [String] = []
        var placed: Set<String> = []
        for entity in entities {
            if entity.superNumber == 0, let table = table(named: entity.tableName) {
                statements.append(createStatement(for: table))
            }
            for joinTable in joinTables where joinTable.entity == entity.name {
                placed.insert(joinTable.name)
                statements.append(createStatement(for: joinTable))
            }
        }
        for joinTable in joinTables where !placed.contains(joinTable.name) {
            statements.append(createStatement(for: joinTable))
        }
        statements += indexes.filter { $0.declaration == .index }.map(createStatement(for:))
        statements.append(Self.primaryKeyTableSQL)
        statements.append(Self.metadataTableSQL)
        if includingModelCache { statements.append(Self.modelCacheTableSQL) }
        return statements
    }

    /// `CREATE TABLE ZPERSON ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, … )`, with the
    /// uniqueness constraints that ``style`` declares inside the table: `ZEMAIL VARCHAR UNIQUE`
    /// or `…, CONSTRAINT ZNAME_ZTEAM UNIQUE (ZNAME, ZTEAM) )`.
    public func createStatement(for table: EntityTableLayout) -> String {
        let constraints = indexes.filter { $0.table == table.name && $0.declaration != .index }
        let uniqueColumns = Set(
            constraints.filter { $0.declaration == .columnConstraint }
                .flatMap { $0.elements.map(\.column) })
        var items = table.columns.map { column in
            let type = column.role == .primaryKey ? "INTEGER PRIMARY KEY" : column.type.rawValue
            let unique = uniqueColumns.contains(column.name) ? " UNIQUE" : ""
            return Self.schemaIdentifier(column.name) + " " + type + unique
        }
        for constraint in constraints where constraint.declaration == .tableConstraint {
            items.append(
                "CONSTRAINT " + Self.schemaIdentifier(constraint.name) + " UNIQUE ("
                    + constraint.elements.map { Self.schemaIdentifier($0.column) }
                    .joined(separator: ", ") + ")")
        }
        return "CREATE TABLE " + Self.schemaIdentifier(table.name) + " ( "
            + items.joined(separator: ", ") + " )"
    }

    /// `CREATE TABLE Z_1BOOKS ( Z_1AUTHORS INTEGER, Z_2BOOKS INTEGER, PRIMARY KEY (…) )`.
    public func createStatement(for joinTable: JoinTableLayout) -> String {
        let columns = joinTable.columns.map {
            Self.schemaIdentifier($0.name) + " " + $0.type.rawValue
        }
        let key = [joinTable.ownerColumn, joinTable.destinationColumn].map(Self.schemaIdentifier)
        return "CREATE TABLE " + Self.schemaIdentifier(joinTable.name) + " ( "
            + columns.joined(separator: ", ") + ", PRIMARY KEY ("
            + key.joined(separator: ", ") + ") )"
    }

    /// `CREATE [UNIQUE] INDEX name ON table (column [COLLATE BINARY ASC], …)`. A uniqueness
    /// constraint that ``style`` declares inside `CREATE TABLE` gets the equivalent index
    /// statement here (for adding it to an existing table).
    public func createStatement(for index: IndexLayout) -> String {
        let elements = index.elements.map { element in
            let column = Self.schemaIdentifier(element.column)
            guard element.isCollated else { return column }
            return column + " COLLATE BINARY " + (element.isAscending ? "ASC" : "DESC")
        }
        return "CREATE " + (index.isUnique ? "UNIQUE " : "") + "INDEX "
            + Self.schemaIdentifier(index.name) + " ON " + Self.schemaIdentifier(index.table)
            + " (" + elements.joined(separator: ", ") + ")"
    }

    /// `name` as Core Data writes it in DDL: bare when SQLite reads it as a plain name (it
    /// starts with `Z` — no SQL keyword does — and holds only letters, digits, `_` and
    /// non-ASCII characters, as every name Core Data derives from a model does), otherwise
    /// quoted with embedded `"` doubled.
    ///
    /// ```swift
    /// StoreLayout.schemaIdentifier("ZPERSON")      // ZPERSON
    /// StoreLayout.schemaIdentifier("ZFIRST NAME")  // "ZFIRST NAME"
    /// ```
    public static func schemaIdentifier(_ name: String) -> String {
        let scalars = name.unicodeScalars
        let plain =
            (scalars.first == "Z" || scalars.first == "z")
            && scalars.allSatisfy { scalar in
                !scalar.isASCII || scalar == "_" || ("a"..."z").contains(scalar)
                    || ("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar)
            }
        return plain ? name : quoteIdentifier(name)
    }
}
