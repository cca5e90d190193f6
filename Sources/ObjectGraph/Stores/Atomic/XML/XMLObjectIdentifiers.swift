/// The `z<N>` ids an XML store writes. An object keeps its primary key as `N`, so its URI
/// (`x-coredata://<store>/<Entity>/p<N>`) is the same after the file is read again.
///
/// XML ids are unique in a file, while primary keys are unique per inheritance tree: when
/// objects of two trees share a key (new objects of two trees saved in one session), the tree
/// listed first in the model keeps it and the others get new numbers after every key in use.
/// Those objects' URIs change when the file is next read; all others stay.
struct XMLObjectIdentifiers {
    /// The number written for each object.
    private(set) var numberByID: [ObjectID: Int64] = [:]
    /// The largest number written, or the largest key ever handed out, whichever is larger:
    /// `<nextObjectID>`.
    private(set) var lastNumber: Int64 = 0

    init(rows: [StoreRow], nextKeys: [Int: Int64], schema: ModelSchema) {
        numberByID.reserveCapacity(rows.count)
        var largest: Int64 = 0
        for key in nextKeys.values { largest = max(largest, key - 1) }
        for row in rows {
            if case .permanent(let key) = row.id.key { largest = max(largest, key) }
        }
        // The root of each entity's inheritance tree, computed once per entity.
        let rootOf = schema.entities.map { schema.root(of: $0).index }
        var claimed = Set<Int64>()
        claimed.reserveCapacity(rows.count)
        var displaced: [StoreRow] = []
        let ordered = rows.sorted { Self.order($0, $1, rootOf: rootOf) }
        for row in ordered {
            guard case .permanent(let key) = row.id.key, key > 0 else {
                displaced.append(row)
                continue
            }
            guard claimed.insert(key).inserted else {
                displaced.append(row)
                continue
            }
            numberByID[row.id] = key
        }
        for row in displaced {
            largest += 1
            numberByID[row.id] = largest
        }
        lastNumber = largest
    }

    /// `z<N>` for `id`, or `nil` when the object is not in the file.
    func identifier(of id: ObjectID) -> String? {
        numberByID[id].map { "z\($0)" }
    }

    /// Root entity first, then key, then entity: the order in which keys are claimed.
    private static func order(_ a: StoreRow, _ b: StoreRow, rootOf: [Int]) -> Bool {
        let rootA = rootOf.indices.contains(a.entityIndex) ? rootOf[a.entityIndex] : -1
        let rootB = rootOf.indices.contains(b.entityIndex) ? rootOf[b.entityIndex] : -1
        if rootA != rootB { return rootA < rootB }
        let keyA = RowTable.key(a.id)
        let keyB = RowTable.key(b.id)
        if keyA != keyB { return keyA < keyB }
        return a.entityIndex < b.entityIndex
    }
}
