/// The typed writes a context's objects could not take (see
/// ``ValidationError/Problem/Rule/rejectedWrite``): a generated class's setters do not throw,
/// so what they cannot do is kept here, per object and property, and reported by
/// ``ManagedObject/validateForInsert()``/``ManagedObject/validateForUpdate()`` and by every
/// save until the property is written successfully or the changes are rolled back.
struct RejectedWrites {
    private struct Entry {
        let object: ManagedObject
        var writes: [(key: String, value: Value, reason: String)]
    }

    /// By object (held, so its identifier is not reused while it is listed).
    private var entries: [ObjectIdentifier: Entry] = [:]

    /// Whether nothing is rejected (the typed write path checks only this when it succeeds).
    var isEmpty: Bool { entries.isEmpty }

    /// Records that `object` could not take `value` for `key`, replacing an earlier record of
    /// the same property.
    mutating func record(_ object: ManagedObject, key: String, value: Value, reason: String) {
        var entry = entries[ObjectIdentifier(object)] ?? Entry(object: object, writes: [])
        entry.writes.removeAll { $0.key == key }
        entry.writes.append((key, value, reason))
        entries[ObjectIdentifier(object)] = entry
    }

    /// Forgets the rejected write of `key` by `object` (it was written since).
    mutating func clear(_ object: ManagedObject, key: String) {
        let id = ObjectIdentifier(object)
        guard var entry = entries[id] else { return }
        entry.writes.removeAll { $0.key == key }
        entries[id] = entry.writes.isEmpty ? nil : entry
    }

    /// Forgets every rejected write.
    mutating func removeAll() {
        entries.removeAll()
    }

    /// The problems of `object`'s rejected writes.
    func problems(of object: ManagedObject) -> [ValidationError.Problem] {
        guard let entry = entries[ObjectIdentifier(object)] else { return [] }
        return entry.writes.map {
            ValidationRules.problem(object, $0.key, .rejectedWrite, $0.value, $0.reason)
        }
    }

    /// Forgets the rejected writes of objects deleted since (their values are not saved).
    mutating func removeDeleted() {
        if entries.values.contains(where: \.object.deletedFlag) {
            entries = entries.filter { !$0.value.object.deletedFlag }
        }
    }

    /// The problems of every object's rejected writes.
    func allProblems() -> [ValidationError.Problem] {
        entries.values.flatMap { problems(of: $0.object) }
    }
}
