import Foundation

/// Consecutive changes of one transaction that differ only in their object's key: one type,
/// one entity, keys `firstKey`, `firstKey + 1`, … and (for updates) one set of changed
/// columns. The recorder writes the `ACHANGE` rows of a run of inserts or updates with one
/// statement, so a save of 100,000 new rows runs a handful of statements, not 100,000.
struct HistoryChangeRun {
    let type: HistoryChangeType
    /// `Z_ENT` of the changed rows.
    let entityNumber: Int
    /// The table holding the entity's rows.
    let tableName: String
    /// The first row's `Z_PK`.
    let firstKey: Int64
    /// How many rows, at consecutive keys.
    var count: Int
    /// `ZCOLUMNS` of every row of the run (`.none` for inserts and deletes).
    let columns: ChangedColumns

    /// The key the next row must have to join the run.
    var nextKey: Int64 { firstKey + Int64(count) }

    /// Extends the run by a change at `key` when it continues it; false otherwise.
    mutating func absorb(
        _ type: HistoryChangeType, entityNumber: Int, key: Int64, columns: ChangedColumns
    ) -> Bool {
        guard type == self.type, entityNumber == self.entityNumber, key == nextKey,
            columns == self.columns
        else { return false }
        count += 1
        return true
    }
}

/// `ZCOLUMNS` of an update: a bit per property position of the entity (inherited properties
/// first, in model order), position `n` at bit `n % 8` of byte `n / 8`, in `max(1, ⌈count /
/// 8⌉)` bytes for an entity of `count` properties. Kept as a word while every set bit is
/// below 64, so comparing two changes' columns allocates nothing.
enum ChangedColumns: Equatable {
    /// No `ZCOLUMNS` (NULL): inserts and deletes.
    case none
    /// The bits of positions 0–63, in a blob of `byteCount` bytes.
    case word(UInt64, byteCount: Int)
    /// The whole blob (a set bit at position 64 or past it).
    case bytes(Data)

    /// The columns of `positions` of an entity with `count` properties (positions outside
    /// `0..<count` are left out).
    init<Positions: Sequence<Int>>(positions: Positions, count: Int) {
        var word: UInt64 = 0
        var wide: [Int] = []
        for position in positions where position >= 0 && position < count {
            if position < 64 { word |= 1 << UInt64(position) } else { wide.append(position) }
        }
        let byteCount = max(1, (count + 7) / 8)
        guard !wide.isEmpty else {
            self = .word(word, byteCount: byteCount)
            return
        }
        var bytes = Self.bytes(of: word, count: byteCount)
        for position in wide { bytes[position / 8] |= UInt8(1) << UInt8(position % 8) }
        self = .bytes(Data(bytes))
    }

    /// The `ZCOLUMNS` value: NULL or the blob.
    var blob: Data? {
        switch self {
        case .none: return nil
        case .word(let word, let byteCount): return Data(Self.bytes(of: word, count: byteCount))
        case .bytes(let data): return data
        }
    }

    /// `word`'s bits, little-endian, in `count` bytes.
    private static func bytes(of word: UInt64, count: Int) -> [UInt8] {
        (0..<count).map { index in index < 8 ? UInt8(truncatingIfNeeded: word >> (8 * index)) : 0 }
    }
}
