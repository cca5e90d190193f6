/// The `ZCOLUMNS` of a save's updates: the changed properties that are stored (transient
/// ones left out), found from each row's changed-position mask with a word per entity made
/// once, so no row allocates.
struct PersistentColumns {
    let schema: ModelSchema
    /// Per entity index: the bits of its stored positions below 64, once made.
    private var words: [UInt64?]

    init(schema: ModelSchema) {
        self.schema = schema
        words = Array(repeating: nil, count: schema.entities.count)
    }

    /// The stored properties that changed in `row`, an update of the entity at `index`
    /// (every stored property when the row does not say which changed).
    mutating func changedColumns(of row: PendingRow, entityIndex index: Int) -> ChangedColumns {
        let entity = schema.entities[index]
        let count = entity.properties.count
        let stored = { (position: Int) in
            position >= 0 && position < entity.isTransient.count && !entity.isTransient[position]
        }
        if let mask = row.changedMask {
            let word: UInt64
            if let known = words[index] {
                word = known
            } else {
                word = (0..<min(64, count)).filter(stored).reduce(0) { $0 | 1 << UInt64($1) }
                words[index] = word
            }
            return .word(mask & word, byteCount: max(1, (count + 7) / 8))
        }
        let positions = row.changedPositions ?? Array(entity.properties.indices)
        return ChangedColumns(positions: positions.filter(stored), count: count)
    }
}
