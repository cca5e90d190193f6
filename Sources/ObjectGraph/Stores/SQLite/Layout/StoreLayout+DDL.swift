import SQLiteDatabase

/// The SQL that creates a store's schema. Every identifier is quoted with embedded `"` doubled
/// (entity and property names come from user models and may be keywords); no value appears in
/// the text.
extension StoreLayout {
    /// Core Data's `Z_PRIMARYKEY` table, exactly as Apple writes it (§4).
    public static let primaryKeyTableSQL =
        "CREATE TABLE Z_PRIMARYKEY (Z_ENT INTEGER PRIMARY KEY, Z_NAME VARCHAR, Z_SUPER INTEGER, Z_MAX INTEGER)"
    /// Core Data's `Z_METADATA` table, exactly as Apple writes it.
    public static let metadataTableSQL =
        "CREATE TABLE Z_METADATA (Z_VERSION INTEGER PRIMARY KEY, Z_UUID VARCHAR(255), Z_PLIST BLOB)"
    /// Core Data's `Z_MODELCACHE` table, exactly as Apple writes it.
    public static let modelCacheTableSQL = "CREATE TABLE Z_MODELCACHE (Z_CONTENT BLOB)"

    /// Every statement that creates the schema, in order: entity tables, join tables,
    /// `Z_PRIMARYKEY`, `Z_METADATA`, `Z_MODELCACHE` (unless `includingModelCache` is false),
    /// then the indexes. Rows (`Z_PRIMARYKEY`, `Z_METADATA`) are the store's to insert.
    ///
    /// ```swift
    /// for sql in try StoreLayout(model: model).createStatements() {
    ///     try db.execute(sql: sql)
    /// }
    /// ```
    public func createStatements(includingModelCache: Bool = true) -> [String] {
        var statements = tables.map(createStatement(for:))
        statements += joinTables.map(createStatement(for:))
        statements.append(Self.primaryKeyTableSQL)
        statements.append(Self.metadataTableSQL)
        if includingModelCache { statements.append(Self.modelCacheTableSQL) }
        statements += indexes.map(createStatement(for:))
        return statements
    }

    /// `CREATE TABLE "ZPERSON" ( "Z_PK" INTEGER PRIMARY KEY, "Z_ENT" INTEGER, … )`.
    public func createStatement(for table: EntityTableLayout) -> String {
        let columns = table.columns.map { column in
            let type = column.role == .primaryKey ? "INTEGER PRIMARY KEY" : column.type.rawValue
            return quoteIdentifier(column.name) + " " + type
        }
        return "CREATE TABLE " + quoteIdentifier(table.name) + " ( "
            + columns.joined(separator: ", ") + " )"
    }

    /// `CREATE TABLE "Z_1BOOKS" ( "Z_1AUTHORS" INTEGER, "Z_2BOOKS" INTEGER, PRIMARY KEY (…) )`.
    public func createStatement(for joinTable: JoinTableLayout) -> String {
        let columns = joinTable.columns.map { quoteIdentifier($0.name) + " " + $0.type.rawValue }
        let key = [joinTable.ownerColumn, joinTable.destinationColumn].map(quoteIdentifier)
        return "CREATE TABLE " + quoteIdentifier(joinTable.name) + " ( "
            + columns.joined(separator: ", ") + ", PRIMARY KEY ("
            + key.joined(separator: ", ") + ") )"
    }

    /// `CREATE [UNIQUE] INDEX "name" ON "table" ("column" [COLLATE BINARY ASC], …)`.
    public func createStatement(for index: IndexLayout) -> String {
        let elements = index.elements.map { element in
            guard element.isCollated else { return quoteIdentifier(element.column) }
            return quoteIdentifier(element.column) + " COLLATE BINARY "
                + (element.isAscending ? "ASC" : "DESC")
        }
        return "CREATE " + (index.isUnique ? "UNIQUE " : "") + "INDEX "
            + quoteIdentifier(index.name) + " ON " + quoteIdentifier(index.table) + " ("
            + elements.joined(separator: ", ") + ")"
    }
}
