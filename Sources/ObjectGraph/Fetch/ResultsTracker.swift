import Foundation

/// The results a fetched-results controller keeps, in sections, and their upkeep: a full fetch,
/// or the changes of one context notification applied in place (the changed objects taken out,
/// tested by their current values, and put back where binary search says).
///
/// It holds no context (each call names one), so a context may hold it from an observer
/// without a cycle. Not `Sendable`: it holds objects; used on its context's thread.
final class ResultsTracker<T: ManagedObject> {
    /// Where an object in the results is filed: its section's name, its sort values when it
    /// was filed, and its ID then.
    struct Entry {
        var section: String
        var keys: [Value]
        var id: ObjectID
    }

    /// One section: objects in order, with the sort values they were filed by.
    struct Section {
        var name: String
        var objects: [T]
        var keys: [[Value]]
    }

    /// What one notification did to the results.
    struct Outcome {
        /// The change, `nil` or empty when the results did not change.
        var difference: ResultsDifference?
        /// Whether objects of the results took new IDs (a save made them permanent).
        var idsChanged = false
    }

    let request: FetchRequest<T>
    private let descriptors: [SortDescriptor]
    private let sortKeys: [Expression]
    private let sectionExpression: Expression?
    private(set) var sections: [Section] = []
    private var sectionIndex: [String: Int] = [:]
    private var entries: [ObjectIdentifier: Entry] = [:]
    private var byID: [ObjectID: T] = [:]
    private var familyNames: Set<String> = []
    private var familyIndexes: Set<Int> = []
    /// Whether the results were fetched.
    private(set) var fetched = false
    /// How many times every result was fetched again.
    private(set) var fullFetches = 0

    /// Changes touching more objects than this fraction of the results (and at least
    /// ``minimumIncremental``) refetch instead.
    static var incrementalFraction: Int { 8 }
    static var minimumIncremental: Int { 64 }

    /// Checks the request and the section key path.
    /// - Throws: ``FetchedResultsError`` without sort descriptors or for a section key path
    ///   that does not parse; ``ObjectGraphError`` for a sort key that does not.
    init(request: FetchRequest<T>, sectionNameKeyPath: String?) throws {
        guard !request.sortDescriptors.isEmpty else {
            throw FetchedResultsError.noSortDescriptors(
                entity: request.entityName ?? String(describing: T.self))
        }
        self.request = request
        descriptors = request.sortDescriptors
        sortKeys = try SortDescriptor.keyExpressions(request.sortDescriptors)
        if let keyPath = sectionNameKeyPath {
            do {
                sectionExpression = try Expression(format: keyPath)
            } catch {
                throw FetchedResultsError.invalidSectionKeyPath(
                    keyPath, reason: String(describing: error))
            }
        } else {
            sectionExpression = nil
        }
    }

    // MARK: - Reading

    /// The results as IDs.
    func snapshot() -> ResultsSnapshot {
        ResultsSnapshot(
            sections: sections.map { .init(name: $0.name, ids: $0.objects.map(\.objectID)) })
    }

    /// Where `object` is, if it is in the results.
    func indexPath(of object: ManagedObject) -> ResultsIndexPath? {
        guard let entry = entries[ObjectIdentifier(object)],
            let section = sectionIndex[entry.section]
        else { return nil }
        let row = lowerBound(in: sections[section], entry.keys, ObjectIdentifier(object))
        guard row < sections[section].objects.count, sections[section].objects[row] === object
        else { return nil }
        return ResultsIndexPath(row: row, section: section)
    }

    // MARK: - Fetching

    /// Fetches every result again and files them.
    func fetch(in context: ManagedContext) throws {
        let entity = try context.fetchEntity(request)
        let family = request.includesSubentities ? context.schema.family(of: entity) : [entity]
        familyNames = Set(family.map(\.entity.name))
        familyIndexes = Set(family.map(\.index))
        let objects = try context.fetch(request)
        var filed: [(object: T, keys: [Value], section: String)] = []
        filed.reserveCapacity(objects.count)
        for object in objects {
            filed.append((object, try keys(of: object), try sectionName(of: object)))
        }
        filed.sort { lhs, rhs in
            SortDescriptor.precedes(lhs.keys, rhs.keys, by: descriptors)
                ?? (ObjectIdentifier(lhs.object) < ObjectIdentifier(rhs.object))
        }
        sections = []
        sectionIndex = [:]
        entries = [:]
        entries.reserveCapacity(filed.count)
        byID = [:]
        byID.reserveCapacity(filed.count)
        if sectionExpression == nil { appendSection(named: "") }
        for item in filed {
            let section = sectionIndex[item.section] ?? appendSection(named: item.section)
            sections[section].objects.append(item.object)
            sections[section].keys.append(item.keys)
            entries[ObjectIdentifier(item.object)] = Entry(
                section: item.section, keys: item.keys, id: item.object.objectID)
            byID[item.object.objectID] = item.object
        }
        fetched = true
        fullFetches += 1
    }

    @discardableResult
    private func appendSection(named name: String) -> Int {
        sections.append(Section(name: name, objects: [], keys: []))
        sectionIndex[name] = sections.count - 1
        return sections.count - 1
    }

    // MARK: - Changes

    /// Brings the results up to date with what `notification` reports, and says how they
    /// changed.
    func update(with notification: ContextNotification, in context: ManagedContext) throws
        -> Outcome
    {
        guard fetched else { return Outcome() }
        let change = notification.changes
        switch notification.kind {
        case .willSave:
            return Outcome()
        case .didSave:
            if !request.includesPendingChanges, touches(change) {
                return try refetch(in: context, updated: change)
            }
            return Outcome(idsChanged: adoptNewIDs(change.inserted, in: context))
        case .objectsDidChange:
            guard touches(change) || change.invalidatedAll else { return Outcome() }
            if change.invalidatedAll || !change.invalidated.isEmpty
                || !request.includesPendingChanges || request.fetchLimit > 0
                || request.fetchOffset > 0
            {
                return try refetch(in: context, updated: change)
            }
            return try applyIncrementally(change, in: context)
        }
    }

    /// Brings in the objects another context's merged save (`change`) updated that this
    /// context did not hold loaded: the merge's objects-did-change does not name them, yet
    /// they may match now. Requests that refetch on changes refetch when it names any object
    /// of the fetched entities.
    func updateAfterMerge(_ change: ContextChange, in context: ManagedContext) throws -> Outcome {
        guard fetched, touches(change) else { return Outcome() }
        if !request.includesPendingChanges || request.fetchLimit > 0 || request.fetchOffset > 0 {
            return try refetch(in: context, updated: change)
        }
        // Those not in the results (the ones held loaded were tested at the objects-did-change
        // already, and test the same again; another observer may have loaded the rest).
        let unseen = change.updated.filter { id in
            familyNames.contains(id.entityName) && byID[id] == nil
        }
        guard !unseen.isEmpty else { return Outcome() }
        // Listed as inserted: loaded if need be, and entering the results when they match.
        return try applyIncrementally(ContextChange(inserted: unseen), in: context)
    }

    /// Whether `change` names an object of the fetched entities.
    private func touches(_ change: ContextChange) -> Bool {
        for ids in [
            change.inserted, change.updated, change.deleted, change.refreshed, change.invalidated,
        ]
        where ids.contains(where: { familyNames.contains($0.entityName) }) {
            return true
        }
        return false
    }

    /// Files the permanent IDs a save gave objects of the results; whether there were any.
    private func adoptNewIDs(_ inserted: Set<ObjectID>, in context: ManagedContext) -> Bool {
        var changed = false
        for id in inserted where familyNames.contains(id.entityName) {
            guard let object = context.registeredObject(for: id) as? T,
                let entry = entries[ObjectIdentifier(object)], entry.id != id
            else { continue }
            byID[entry.id] = nil
            byID[id] = object
            entries[ObjectIdentifier(object)]?.id = id
            changed = true
        }
        return changed
    }

    /// Fetches everything again and reports the difference from the results before.
    private func refetch(in context: ManagedContext, updated change: ContextChange) throws
        -> Outcome
    {
        let before = sections
        try fetch(in: context)
        var updated = Set<ObjectIdentifier>()
        for id in change.updated.union(change.refreshed) {
            if let object = byID[id] { updated.insert(ObjectIdentifier(object)) }
        }
        return Outcome(
            difference: ResultsDiffer.difference(from: before, to: sections, updated: updated))
    }

    /// The objects `change` names that concern the results: those in them and those of the
    /// fetched entities the context holds (or, for another context's inserts, can load).
    private func changedObjects(_ change: ContextChange, in context: ManagedContext) -> [T] {
        var seen = Set<ObjectIdentifier>()
        var objects: [T] = []
        for ids in [change.deleted, change.inserted, change.updated, change.refreshed] {
            for id in ids where familyNames.contains(id.entityName) {
                var object = byID[id] ?? (context.registeredObject(for: id) as? T)
                if object == nil, change.inserted.contains(id) {
                    object = (try? context.existingObject(with: id)) as? T
                }
                if let object, seen.insert(ObjectIdentifier(object)).inserted {
                    objects.append(object)
                }
            }
        }
        return objects
    }

    /// Applies `change` in place: each changed object taken out of the results and, when it
    /// matches now, put back where its current values sort. Many changes refetch.
    private func applyIncrementally(_ change: ContextChange, in context: ManagedContext) throws
        -> Outcome
    {
        // Counted before anything is loaded: a large merge refetches at once.
        let limit = max(Self.minimumIncremental, entries.count / Self.incrementalFraction)
        var named = 0
        for ids in [change.deleted, change.inserted, change.updated, change.refreshed] {
            named += ids.lazy.filter { self.familyNames.contains($0.entityName) }.count
        }
        guard named <= limit else { return try refetch(in: context, updated: change) }
        let objects = changedObjects(change, in: context)
        // Everything that can throw first, so a failure leaves the results as they were.
        var placed: [(object: T, keys: [Value], section: String)] = []
        for object in objects where !change.deleted.contains(object.objectID) {
            if try matches(object) {
                placed.append((object, try keys(of: object), try sectionName(of: object)))
            }
        }
        let before = sections.count > 1 ? sections : nil
        let oldNames = sections.map(\.name)
        var old: [ResultsDiffer.Candidate] = []
        for object in objects {
            guard let path = indexPath(of: object),
                let entry = entries[ObjectIdentifier(object)]
            else { continue }
            old.append(.init(key: ObjectIdentifier(object), id: entry.id, path: path))
        }
        var reordered = false
        for object in objects where entries[ObjectIdentifier(object)] != nil {
            reordered = remove(object) || reordered
        }
        for item in placed {
            reordered = insert(item.object, keys: item.keys, section: item.section) || reordered
        }
        if reordered { restoreSectionOrder() }
        var new: [ResultsDiffer.Candidate] = []
        for item in placed {
            if let path = indexPath(of: item.object) {
                new.append(
                    .init(key: ObjectIdentifier(item.object), id: item.object.objectID, path: path))
            }
        }
        var updated = Set<ObjectIdentifier>()
        for id in change.updated.union(change.refreshed) {
            if let object = byID[id] { updated.insert(ObjectIdentifier(object)) }
        }
        let newNames = sections.map(\.name)
        if let difference = ResultsDiffer.difference(
            oldNames: oldNames, newNames: newNames, old: old, new: new, updated: updated,
            allRows: false)
        {
            return Outcome(difference: difference)
        }
        // Surviving sections changed order (a section key that does not follow the sort):
        // every row is compared.
        return Outcome(
            difference: ResultsDiffer.difference(from: before ?? [], to: sections, updated: updated)
        )
    }

    /// Whether `object` belongs in the results by its current values.
    private func matches(_ object: T) throws -> Bool {
        guard !object.deletedFlag, familyIndexes.contains(object.schema.index) else { return false }
        return try request.predicate?.evaluate(with: object) ?? true
    }

    /// Takes `object` out of its section; a section left empty goes. Returns whether a
    /// section's first object changed (its place among the sections may have).
    private func remove(_ object: T) -> Bool {
        let key = ObjectIdentifier(object)
        guard let path = indexPath(of: object), let entry = entries[key] else { return false }
        sections[path.section].objects.remove(at: path.row)
        sections[path.section].keys.remove(at: path.row)
        entries[key] = nil
        if byID[entry.id] === object { byID[entry.id] = nil }
        if sections[path.section].objects.isEmpty, sectionExpression != nil {
            sections.remove(at: path.section)
            reindexSections()
            return false
        }
        return path.row == 0
    }

    /// Files `object` in its section (made when new) by binary search. Returns whether a
    /// section's first object changed.
    private func insert(_ object: T, keys: [Value], section name: String) -> Bool {
        let key = ObjectIdentifier(object)
        entries[key] = Entry(section: name, keys: keys, id: object.objectID)
        byID[object.objectID] = object
        guard let section = sectionIndex[name] else {
            // A new section goes where its one object sorts among the sections' first ones.
            var low = 0
            var high = sections.count
            while low < high {
                let middle = (low + high) / 2
                if precedes(sections[middle].keys[0], sections[middle].objects[0], keys, object) {
                    low = middle + 1
                } else {
                    high = middle
                }
            }
            sections.insert(Section(name: name, objects: [object], keys: [keys]), at: low)
            reindexSections()
            return false
        }
        let row = lowerBound(in: sections[section], keys, key)
        sections[section].objects.insert(object, at: row)
        sections[section].keys.insert(keys, at: row)
        return row == 0
    }

    /// Sorts the sections by their first objects again (stable), when a change of first
    /// objects put them out of order.
    private func restoreSectionOrder() {
        let ordered = zip(sections.dropFirst(), sections).allSatisfy { next, previous in
            !precedes(next.keys[0], next.objects[0], previous.keys[0], previous.objects[0])
        }
        guard !ordered else { return }
        sections.sort { precedes($0.keys[0], $0.objects[0], $1.keys[0], $1.objects[0]) }
        reindexSections()
    }

    private func reindexSections() {
        sectionIndex = [:]
        for (index, section) in sections.enumerated() { sectionIndex[section.name] = index }
    }

    // MARK: - Order

    private func precedes(_ a: [Value], _ x: T, _ b: [Value], _ y: T) -> Bool {
        SortDescriptor.precedes(a, b, by: descriptors)
            ?? (ObjectIdentifier(x) < ObjectIdentifier(y))
    }

    /// The first row of `section` not before (`keys`, `key`).
    private func lowerBound(in section: Section, _ keys: [Value], _ key: ObjectIdentifier) -> Int {
        var low = 0
        var high = section.objects.count
        while low < high {
            let middle = (low + high) / 2
            let before =
                SortDescriptor.precedes(section.keys[middle], keys, by: descriptors)
                ?? (ObjectIdentifier(section.objects[middle]) < key)
            if before { low = middle + 1 } else { high = middle }
        }
        return low
    }

    private func keys(of object: T) throws -> [Value] {
        try sortKeys.map { expression in
            if case .value(let value) = try expression.evaluate(with: object) { return value }
            return .null
        }
    }

    /// The section name of `object`: its section key path's value as text (`""` for nil).
    private func sectionName(of object: T) throws -> String {
        guard let sectionExpression else { return "" }
        guard case .value(let value) = try sectionExpression.evaluate(with: object) else {
            return ""
        }
        switch value {
        case .null: return ""
        case .string(let text): return text
        default: return value.description
        }
    }
}
