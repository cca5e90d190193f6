import Foundation

/// A store that keeps committed rows in memory (not live objects): what a context saves is
/// copied here, and fetches read it back. Nothing is written to disk.
final class InMemoryStore: RowTableStore {
    let description: StoreDescription
    var table = RowTable()

    init(description: StoreDescription) {
        self.description = description
    }

    func save(_ changes: ChangeSet) throws {
        if description.isReadOnly {
            throw StoreError.readOnly(path: description.displayPath)
        }
        try table.apply(changes)
    }

    func importRows(_ rows: [StoreRow], schema: ModelSchema) throws {
        if description.isReadOnly {
            throw StoreError.readOnly(path: description.displayPath)
        }
        table.importRows(rows, schema: schema)
    }
}
