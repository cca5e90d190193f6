import Foundation
import SQLiteDatabase

/// Importing whole rows (moving a store to SQLite): `Z_PRIMARYKEY.Z_MAX` raised to at least the
/// largest key of each inheritance tree, then one transaction through the save path (rows, join
/// tables, order keys).
extension SQLiteStore {
    func importRows(_ rows: [StoreRow], schema: ModelSchema) throws {
        if description.isReadOnly { throw StoreError.readOnly(path: path) }
        var largest: [Int: Int64] = [:]
        for row in rows {
            guard case .permanent(let key) = row.id.key,
                row.entityIndex >= 0, row.entityIndex < schema.entities.count
            else { continue }
            let root = schema.root(of: schema.entities[row.entityIndex]).index
            largest[root] = max(largest[root] ?? 0, key)
        }
        try sqlite {
            try writeTransaction { db in
                for (root, key) in largest.sorted(by: { $0.key < $1.key }) {
                    try db.execute(
                        sql:
                            "UPDATE Z_PRIMARYKEY SET Z_MAX = MAX(COALESCE(Z_MAX, 0), ?) WHERE Z_ENT = ?",
                        arguments: [key, entityLayouts[root].entityNumber])
                }
            }
        }
        try save(ChangeSet(inserting: rows))
    }
}
