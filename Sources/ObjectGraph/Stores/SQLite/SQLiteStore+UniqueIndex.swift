import Foundation
import SQLiteDatabase

/// The model's uniqueness constraints behind the file's unique indexes: which one refused a
/// write, so that a save can name it and resolve it by its merge policy.
extension SQLiteStore {
    /// The file's unique indexes refuse values another row holds.
    var enforcesUniqueness: Bool { true }

    /// The entity declaring the uniqueness constraint whose unique index refused a write, and
    /// the constraint's properties, read from SQLite's message
    /// (`UNIQUE constraint failed: ZPERSON.ZEMAIL, ZPERSON.ZTEAM`); `nil` when `error` is no
    /// unique-index failure or its columns are no model constraint's.
    func uniquenessConstraint(refusing error: DatabaseError) -> (
        entity: String, properties: [String]
    )? {
        guard error.extendedResultCode == .constraintUnique,
            let range = error.message.range(of: "UNIQUE constraint failed: ")
        else { return nil }
        var table: Substring?
        var columns = Set<Substring>()
        for item in error.message[range.upperBound...].split(separator: ",") {
            let name = item.trimmingCharacters(in: .whitespaces)[...]
            guard let dot = name.lastIndex(of: "."), table == nil || table == name[..<dot]
            else { return nil }
            table = name[..<dot]
            columns.insert(name[name.index(after: dot)...])
        }
        for entity in schema.entities {
            let layout = entityLayouts[entity.index]
            guard layout.tableName[...] == table else { continue }
            for constraint in entity.entity.uniquenessConstraints {
                let constrained = constraint.compactMap { Self.column(of: $0, in: layout) }
                if constrained.count == constraint.count,
                    Set(constrained.map { $0[...] }) == columns
                {
                    return (entity.name, constraint)
                }
            }
        }
        return nil
    }

    /// The column of attribute or to-one relationship `property` in `layout`.
    private static func column(of property: String, in layout: EntityLayout) -> String? {
        if let column = layout.attributeColumns[property] { return column.name }
        if case .foreignKey(_, let column, _)? = layout.relationships[property] { return column }
        return nil
    }
}
