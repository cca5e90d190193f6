/// The mapping of a model to Core Data's SQLite file layout: entity numbers, tables, columns,
/// join tables and indexes (`research/coredata-store-format.md` §5–§8).
///
/// Entities are numbered 1…N depth-first, pre-order, over the inheritance forest, with roots
/// and siblings sorted case-insensitively by name. Every inheritance tree lives in one table,
/// `Z` + the upper-cased root name, told apart by `Z_ENT`.
///
/// ```swift
/// let model = try EntityModel(contentsOf: URL(fileURLWithPath: "Models/School.xcdatamodeld"))
/// let layout = try StoreLayout(model: model)
/// layout.entity(named: "Student")?.tableName                   // "ZPERSON"
/// layout.entity(named: "Student")?.attributeColumns["name"]?.name  // "ZNAME"
/// for sql in layout.createStatements() { try db.execute(sql: sql) }
/// ```
public struct StoreLayout: Sendable, Hashable {
    /// Every entity, in `Z_ENT` order (`entities[n - 1]` has number `n`).
    public let entities: [EntityLayout]
    /// One table per inheritance tree, in the order of their root's number.
    public let tables: [EntityTableLayout]
    /// The join tables, in the order they were laid out (by the owning entity's number, then
    /// relationship name).
    public let joinTables: [JoinTableLayout]
    /// The indexes, table by table in Core Data's order: foreign keys, join tables, `Z_ENT`,
    /// then each entity's fetch indexes, indexed attributes, compound indexes and uniqueness
    /// constraints (those of older styles declared inside `CREATE TABLE`).
    public let indexes: [IndexLayout]
    /// The Core Data framework version whose DDL ``createStatements(includingModelCache:)``
    /// writes (`NSPersistenceFrameworkVersion` of the store's metadata).
    public let frameworkVersion: Int
    /// How that version writes indexes and uniqueness constraints.
    public var style: SchemaStyle { SchemaStyle(frameworkVersion: frameworkVersion) }

    private let entityPositions: [String: Int]
    private let tablePositions: [String: Int]

    /// Lays out `model` as Core Data of `frameworkVersion` does (tables and columns are the
    /// same in every version; index names and uniqueness constraints follow ``SchemaStyle``).
    ///
    /// - Throws: ``StoreLayoutError`` when the model is inconsistent (missing parent,
    ///   destination or inverse, inheritance cycle, duplicate entity names, an attribute type
    ///   without a column, an index on an unknown property).
    public init(
        model: EntityModel, frameworkVersion: Int = StoreMetadata.defaultFrameworkVersion
    ) throws(StoreLayoutError) {
        self.frameworkVersion = frameworkVersion
        var builder = StoreLayoutBuilder(
            model: model, style: SchemaStyle(frameworkVersion: frameworkVersion))
        let built = try builder.build()
        entities = built.entities
        tables = built.tables
        joinTables = built.joinTables
        indexes = built.indexes
        var positions: [String: Int] = [:]
        for (position, entity) in entities.enumerated() { positions[entity.name] = position }
        entityPositions = positions
        var tableIndex: [String: Int] = [:]
        for (position, table) in tables.enumerated() { tableIndex[table.name] = position }
        tablePositions = tableIndex
    }

    /// The layout of the entity named `name`.
    public func entity(named name: String) -> EntityLayout? {
        entityPositions[name].map { entities[$0] }
    }

    /// The layout of the entity whose `Z_ENT` is `number`.
    public func entity(number: Int) -> EntityLayout? {
        guard number >= 1, number <= entities.count else { return nil }
        return entities[number - 1]
    }

    /// The entity table named `name` (`ZPERSON`).
    public func table(named name: String) -> EntityTableLayout? {
        tablePositions[name].map { tables[$0] }
    }

    /// The join table named `name` (`Z_1BOOKS`).
    public func joinTable(named name: String) -> JoinTableLayout? {
        joinTables.first { $0.name == name }
    }

    /// The columns of `entity`'s table that its objects use, in table order: `Z_PK`, `Z_ENT`,
    /// `Z_OPT` and the columns of its own and inherited properties (not those of sibling or
    /// child entities).
    ///
    /// ```swift
    /// let columns = layout.columns(of: student).map(\.name)  // for a SELECT list
    /// ```
    public func columns(of entity: EntityLayout) -> [Column] {
        var lineage: Set<String> = []
        var current: EntityLayout? = entity
        while let next = current, lineage.insert(next.name).inserted {
            current = next.superNumber == 0 ? nil : self.entity(number: next.superNumber)
        }
        return table(named: entity.tableName)?.columns.filter { column in
            switch column.role {
            case .primaryKey, .entityNumber, .optimisticLock: return true
            case .attribute(let owner, _), .foreignKey(let owner, _),
                .foreignEntity(let owner, _), .orderKey(let owner, _):
                return lineage.contains(owner)
            case .joinKey, .joinOrderKey: return false
            }
        } ?? []
    }
}
