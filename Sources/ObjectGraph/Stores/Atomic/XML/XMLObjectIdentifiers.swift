/// The `z<N>` ids an XML store writes. An object keeps its primary key as `N`, so its URI
/// (`x-coredata://<store>/<Entity>/p<N>`) is the same after the file is read again.
///
/// XML ids are unique in a file, while primary keys are unique per inheritance tree: when
/// objects of two trees share a key (new objects of two trees saved in one session), the tree
/// listed first in the model keeps it and the others get new numbers after every key in use.
/// Their keys are kept in the metadata entry ``keysEntry`` (`{"z110": "Team/p1", …}`), which
/// Core Data ignores and carries along, so their URIs are stable too; the next write gives them
/// the same numbers again.
struct XMLObjectIdentifiers {
    /// The metadata entry holding the keys of objects whose id is not `z<key>`.
    static let keysEntry = "ObjectGraphXMLObjectKeys"

    /// An object by entity index and primary key (cheaper to hash than an ``ObjectID``).
    private struct Identity: Hashable {
        var entity: Int
        var key: Int64
    }

    /// The number written for each object with a permanent ID.
    private var numbers: [Identity: Int64] = [:]
    /// The number written for other objects (none in a saved store).
    private var otherNumbers: [ObjectID: Int64] = [:]
    private let entityIndexByName: [String: Int]
    /// The largest number written, or the largest key ever handed out, whichever is larger:
    /// `<nextObjectID>`.
    private(set) var lastNumber: Int64 = 0
    /// The key of each object whose number is not its key, by id (`z110` → 1).
    private(set) var displacedKeys: [String: PropertyListValue] = [:]

    /// Numbers `rows`; `previous` is the ``keysEntry`` of the file read, if any.
    init(
        rows: [StoreRow], nextKeys: [Int: Int64], schema: ModelSchema,
        previous: PropertyListValue?
    ) {
        var indexes: [String: Int] = [:]
        for entity in schema.entities { indexes[entity.name] = entity.index }
        entityIndexByName = indexes
        numbers.reserveCapacity(rows.count)
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
            assign(key, to: row.id)
        }
        var preferred: [String: Int64] = [:]
        if case .dictionary(let entries)? = previous {
            for (id, value) in entries {
                guard case .string(let path) = value, let number = XMLStoreReader.key(of: id)
                else { continue }
                preferred[path] = number
            }
        }
        var fresh: [StoreRow] = []
        for row in displaced {
            guard case .permanent(let key) = row.id.key,
                let number = preferred["\(row.id.entityName)/p\(key)"],
                claimed.insert(number).inserted
            else {
                fresh.append(row)
                continue
            }
            assign(number, to: row.id)
            displacedKeys["z\(number)"] = .string("\(row.id.entityName)/p\(key)")
        }
        largest = max(largest, claimed.max() ?? 0)
        for row in fresh {
            largest += 1
            assign(largest, to: row.id)
            if case .permanent(let key) = row.id.key {
                displacedKeys["z\(largest)"] = .string("\(row.id.entityName)/p\(key)")
            }
        }
        lastNumber = largest
    }

    /// The number `N` of `zN` written for `id`, or `nil` when the object is not in the file.
    func number(of id: ObjectID) -> Int64? {
        if case .permanent(let key) = id.key, let entity = entityIndexByName[id.entityName] {
            return numbers[Identity(entity: entity, key: key)]
        }
        return otherNumbers[id]
    }

    /// `z<N>` for `id`, or `nil` when the object is not in the file.
    func identifier(of id: ObjectID) -> String? {
        number(of: id).map { "z" + String($0) }
    }

    private mutating func assign(_ number: Int64, to id: ObjectID) {
        if case .permanent(let key) = id.key, let entity = entityIndexByName[id.entityName] {
            numbers[Identity(entity: entity, key: key)] = number
        } else {
            otherNumbers[id] = number
        }
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
