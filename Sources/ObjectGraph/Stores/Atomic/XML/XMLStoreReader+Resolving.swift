import Foundation

/// Turning the `<object>` records read into store rows: primary keys and relationship targets.
extension XMLStoreReader {
    /// Gives every record its primary key: `N` of `zN`, or the key `keys` names for it when that
    /// key is free in its inheritance tree (else `N` when free, else a new key).
    func assignKeys(
        _ records: inout [ObjectRecord], keys: PropertyListValue?, largest: inout Int64
    ) {
        // "z110" → ("Team", 1)
        var mapped: [String: (entity: String, key: Int64)] = [:]
        if case .dictionary(let entries)? = keys {
            for (id, value) in entries {
                guard case .string(let path) = value else { continue }
                let parts = path.split(separator: "/")
                guard parts.count == 2, parts[1].hasPrefix("p"),
                    let key = Int64(parts[1].dropFirst()), key > 0, key <= Self.maximumNumber
                else { continue }
                mapped[id] = (String(parts[0]), key)
            }
        }
        let rootOf = schema.entities.map { schema.root(of: $0).index }
        var used = Set<RootKey>()
        var pending: [Int] = []
        for index in records.indices {
            if !mapped.isEmpty, mapped["z\(records[index].number)"] != nil {
                pending.append(index)
                continue
            }
            records[index].key = records[index].number
            used.insert(
                RootKey(root: rootOf[records[index].entityIndex], key: records[index].number))
        }
        for index in pending {
            let root = rootOf[records[index].entityIndex]
            var wanted = records[index].number
            if let entry = mapped["z\(records[index].number)"],
                entry.entity == schema.entities[records[index].entityIndex].name
            {
                wanted = entry.key
            }
            for candidate in [wanted, records[index].number]
            where used.insert(RootKey(root: root, key: candidate)).inserted {
                records[index].key = candidate
                break
            }
            if records[index].key == 0 {
                largest += 1
                records[index].key = largest
                used.insert(RootKey(root: root, key: largest))
            }
            largest = max(largest, records[index].key)
        }
    }

    private struct RootKey: Hashable {
        var root: Int
        var key: Int64
    }

    func resolve(_ records: [ObjectRecord], recordByKey: [Int64: Int], uuid: String)
        throws -> [StoreRow]
    {
        func objectID(_ record: ObjectRecord) -> ObjectID {
            ObjectID(
                entityName: schema.entities[record.entityIndex].name, storeIdentifier: uuid,
                key: .permanent(record.key))
        }
        var rows: [StoreRow] = []
        rows.reserveCapacity(records.count)
        for record in records {
            var values = record.values
            let entity = schema.entities[record.entityIndex]
            for reference in record.references {
                guard case .relationship(let relationship) = entity.properties[reference.position]
                else { continue }
                var targets: [ObjectID] = []
                var seen = Set<Int64>()
                for key in reference.keys where seen.insert(key).inserted {
                    guard let index = recordByKey[key] else {
                        throw StoreError.cannotOpen(
                            path: path,
                            reason: "line \(reference.line): '\(relationship.relationship.name)' "
                                + "of z\(record.number) refers to z\(key), which is not in the "
                                + "file")
                    }
                    let target = records[index]
                    if let destination = relationship.destinationIndex,
                        !schema.entity(
                            schema.entities[target.entityIndex],
                            isKindOf: schema.entities[destination])
                    {
                        throw StoreError.cannotOpen(
                            path: path,
                            reason: "line \(reference.line): '\(relationship.relationship.name)' "
                                + "of z\(record.number) refers to z\(key), a "
                                + "\(schema.entities[target.entityIndex].name), not a "
                                + "\(schema.entities[destination].name)")
                    }
                    targets.append(objectID(target))
                }
                values[reference.position] =
                    relationship.isToMany ? .toMany(targets) : .toOne(targets.first)
            }
            rows.append(
                StoreRow(
                    id: objectID(record), entityIndex: record.entityIndex, version: 1,
                    values: values))
        }
        return rows
    }
}
