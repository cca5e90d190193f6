import Foundation
import PostgresClient

@testable import ObjectGraph

/// The differential data set (``DifferentialDataSet``) in a PostgreSQL store on the test
/// server: the store creates its schema, the rows are written into its tables with
/// hand-written INSERTs, and the store's UUID is set to `STORE` (the data set's object IDs).
enum PostgresDifferentialStore {
    /// A new schema holding `data`; its URL.
    static func make(_ data: DifferentialDataSet) throws -> URL {
        let url = try TestPostgresServer.require().url(
            schema: TestPostgresServer.freshSchema("diff"))
        do {
            let coordinator = StoreCoordinator(model: data.model)
            try coordinator.addStore(type: .postgres, at: url)
        }
        let connection = try connect(url)
        try connection.transaction { try populate(data, connection) }
        return url
    }

    /// A connection to the schema of `url`.
    static func connect(_ url: URL) throws -> PostgresConnection {
        let address = try PostgresURL(url)
        let connection = try PostgresConnection(url: address)
        try connection.execute(
            "SELECT set_config('search_path', $1::text, false)",
            [.text(PostgresIdentifier.quoted(address.schema ?? "objectgraph"))])
        return connection
    }

    /// A read-only coordinator on the store at `url`.
    static func open(_ data: DifferentialDataSet, at url: URL) throws -> StoreCoordinator {
        let coordinator = StoreCoordinator(model: data.model)
        try coordinator.addStore(
            type: .postgres, at: url, options: StoreOptions(isReadOnly: true))
        return coordinator
    }

    private static func populate(_ data: DifferentialDataSet, _ connection: PostgresConnection)
        throws
    {
        for object in data.objects {
            guard let entity = data.layout.entity(named: object.entity),
                let declared = data.model.entity(named: object.entity)
            else { continue }
            var columns = ["Z_PK", "Z_ENT", "Z_OPT"]
            var arguments: [PostgresValue] = [
                .integer(object.primaryKey), .integer(Int64(object.entityNumber)), .integer(1),
            ]
            for attribute in data.model.allAttributes(of: declared) {
                guard let column = entity.attributeColumns[attribute.name] else { continue }
                columns.append(column.name)
                arguments.append(
                    try PostgresValueCoding.parameter(
                        for: object.values[attribute.name] ?? .null, type: attribute.type))
            }
            for (column, number) in data.toOneColumns(of: object, in: entity) {
                columns.append(column)
                arguments.append(.integer(number))
            }
            try connection.execute(
                "INSERT INTO " + PostgresIdentifier.quoted(entity.tableName) + " ("
                    + columns.map(PostgresIdentifier.quoted).joined(separator: ", ")
                    + ") VALUES ("
                    + columns.indices.map { "$\($0 + 1)" }.joined(separator: ", ") + ")",
                arguments)
        }
        for object in data.objects {
            guard let entity = data.layout.entity(named: object.entity) else { continue }
            for (name, targets) in object.toMany {
                switch entity.relationships[name] {
                case .inverseForeignKey(let table, let column, _, let orderColumn?)?:
                    for (position, target) in targets.enumerated() {
                        try connection.execute(
                            "UPDATE " + PostgresIdentifier.quoted(table) + " SET "
                                + PostgresIdentifier.quoted(orderColumn)
                                + " = $1 WHERE \"Z_PK\" = $2 AND "
                                + PostgresIdentifier.quoted(column) + " = $3",
                            [
                                .integer(Int64(position + 1)), .integer(target.primaryKey),
                                .integer(object.primaryKey),
                            ])
                    }
                case .joinTable(let table, let owner, let destination, _)?
                where object.entity != "Tag":
                    for target in targets {
                        try connection.execute(
                            "INSERT INTO " + PostgresIdentifier.quoted(table) + " ("
                                + PostgresIdentifier.quoted(owner) + ", "
                                + PostgresIdentifier.quoted(destination) + ") VALUES ($1, $2)",
                            [.integer(object.primaryKey), .integer(target.primaryKey)])
                    }
                default:
                    break
                }
            }
        }
        try connection.execute("UPDATE \"Z_METADATA\" SET \"Z_UUID\" = 'STORE'")
        let maxKey = data.objects.map(\.primaryKey).max() ?? 0
        try connection.execute("UPDATE \"Z_PRIMARYKEY\" SET \"Z_MAX\" = $1", [.integer(maxKey)])
    }
}
