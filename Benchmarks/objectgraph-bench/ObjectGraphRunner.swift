import Foundation
import ObjectGraph

/// Runs one operation through ObjectGraph: a `StoreCoordinator` with a SQLite store and a
/// `ManagedContext` in its default configuration (no undo manager, unless `--undo`).
///
/// Opening the store is not timed; everything from making the context to the end of the
/// operation (fetches, faults, saves) is. Tearing the context down afterwards is not, nor
/// freeing the objects an operation fetched (the raw side likewise keeps what it read until its
/// clock has stopped).
struct ObjectGraphRunner {
    let n: Int
    let url: URL
    let withUndoManager: Bool
    /// The store type (SQLite by default; the store section also measures binary and XML).
    var storeType: StoreType = .sqlite
    /// What the operation fetched (and its context), released only after timing.
    var retained = Retained()

    /// Runs `operation`; `queries` and `budget` bound the `query` loop.
    func run(_ operation: String, queries: Int, budget: Double) throws -> SideResult {
        if operation == "concurrent_import" {
            return try ConcurrentImportRunner(n: n, url: url, retained: retained).run()
        }
        if operation == "migrate" { return try MigrateBenchmark.objectGraph(n: n, url: url) }
        let coordinator = StoreCoordinator(model: Workload.model())
        if operation == "open" {
            // The store's own load: an atomic store reads its whole file here; SQLite only
            // checks its metadata (its rows load on fetch).
            let start = Clock.now()
            let startCPU = Clock.cpu()
            try coordinator.addStore(type: storeType, at: url)
            let seconds = Clock.now() - start
            let cpuSeconds = Clock.cpu() - startCPU
            let count = try ManagedContext(coordinator: coordinator).count(
                for: FetchRequest(entityName: "Person"))
            var result = SideResult(seconds: seconds, checksum: 0, count: count)
            result.cpuSeconds = cpuSeconds
            return result
        }
        if LiveUpdate.operations.contains(operation) {
            try coordinator.addStore(type: storeType, at: url)
            return try LiveUpdate.run(operation, coordinator: coordinator)
        }
        if operation == "resave" {
            // One changed person, saved: an atomic store rewrites its whole file; SQLite
            // updates one row.
            try coordinator.addStore(type: storeType, at: url)
            let context = ManagedContext(coordinator: coordinator)
            var request = FetchRequest(entityName: "Person")
            request.fetchLimit = 1
            guard let person = try context.fetch(request).first else {
                throw BenchError.failed("resave: the store has no person")
            }
            let score: Double = person["score"] ?? 0
            try person.set(Workload.updatedScore(score), for: "score")
            let start = Clock.now()
            let startCPU = Clock.cpu()
            try context.save()
            var result = SideResult(seconds: Clock.now() - start, checksum: 0, count: 1)
            result.cpuSeconds = Clock.cpu() - startCPU
            return result
        }
        if operation == "save" {
            // The store's own save: the graph is inserted first, untimed; only save() is timed.
            try coordinator.addStore(type: storeType, at: url)
            let context = ManagedContext(coordinator: coordinator)
            var result = try insert(context, saving: false)
            let start = Clock.now()
            let startCPU = Clock.cpu()
            try context.save()
            withExtendedLifetime(context) {
                result.seconds = Clock.now() - start
                result.cpuSeconds = Clock.cpu() - startCPU
            }
            return result
        }
        var options = StoreOptions()
        options.tracksHistory = BenchOptions.tracksHistory && storeType == .sqlite
        if BatchBenchmark.operations.contains(operation) {
            try coordinator.addStore(type: storeType, at: url, options: options)
            return try BatchBenchmark.objectGraph(operation, n: n, coordinator: coordinator)
        }
        try coordinator.addStore(type: storeType, at: url, options: options)
        let start = Clock.now()
        let startCPU = Clock.cpu()
        let context = ManagedContext(coordinator: coordinator)
        if withUndoManager { context.undoManager = UndoManager() }
        var result: SideResult
        switch operation {
        case "insert": result = try insert(context)
        case "fetch_all": result = try fetchAll(context)
        case "fetch_drop": result = try fetchDrop(context)
        case "query":
            result = try query(context, queries: queries, budget: budget, start: start)
        case "update_all": result = try updateAll(context)
        case "prefetch": result = try prefetch(context)
        case "aggregate": result = try AggregateBenchmark.objectGraph(context, runs: queries)
        case "delete_all": result = try deleteAll(context)
        default: throw BenchError.usage("unknown operation '\(operation)'")
        }
        result.seconds = Clock.now() - start
        result.cpuSeconds = Clock.cpu() - startCPU
        retained.values.append(context)
        return result
    }

    private func insert(_ context: ManagedContext, saving: Bool = true) throws -> SideResult {
        let teamCount = Workload.teamCount(people: n)
        var teams: [ManagedObject] = []
        teams.reserveCapacity(teamCount)
        for index in 0..<teamCount {
            let team = try context.insert("Team")
            try team.set(Workload.teamName(index), for: "name")
            teams.append(team)
        }
        var checksum: Int64 = 0
        for index in 0..<n {
            checksum &+= try Self.insertPerson(
                index, team: teams[Workload.team(ofPerson: index, teams: teamCount)], into: context)
        }
        if saving { try context.save() }
        // Freed after timing, as what the other operations read (the context no longer keeps
        // saved objects alive; the teams hold their members).
        retained.values.append(teams)
        return SideResult(seconds: 0, checksum: checksum, count: n)
    }

    /// Inserts person `index` (``Workload/person(_:)``) in `team`; returns its checksum.
    static func insertPerson(_ index: Int, team: ManagedObject, into context: ManagedContext)
        throws -> Int64
    {
        let values = Workload.person(index)
        let person = try context.insert("Person")
        try person.set(values.id, for: "id")
        try person.set(values.name, for: "name")
        try person.set(values.age, for: "age")
        try person.set(values.email, for: "email")
        try person.set(values.score, for: "score")
        try person.set(Date(timeIntervalSinceReferenceDate: values.created), for: "created")
        try person.setObject(team, for: "team")
        return values.checksum
    }

    /// Every attribute of a person, as the raw side reads them.
    private func values(of person: ManagedObject) throws -> PersonValues {
        guard let id: Int64 = person["id"], let name: String = person["name"],
            let age: Int32 = person["age"], let email: String = person["email"],
            let score: Double = person["score"], let created: Date = person["created"]
        else { throw BenchError.failed("person \(person.objectID) has a nil or unreadable value") }
        return PersonValues(
            id: id, name: name, age: age, email: email, score: score,
            created: created.timeIntervalSinceReferenceDate)
    }

    private func fetchAll(_ context: ManagedContext) throws -> SideResult {
        let people = try context.fetch(FetchRequest(entityName: "Person"))
        var checksum: Int64 = 0
        for person in people { checksum &+= try values(of: person).checksum }
        retained.values.append(people)
        return SideResult(seconds: 0, checksum: checksum, count: people.count)
    }

    /// Fetches and reads every person, as `fetch_all`, then lets the objects go and prints what
    /// the context still holds: `DROPPED registered=… rss_held_kb=… rss_after_kb=… rss_trimmed_kb=…` (resident
    /// memory with the objects, after letting them go, and once the allocator has returned its
    /// free memory to the system). Only in the hidden child form
    /// (`--side objectgraph --op fetch_drop --dir DIR`, on a store an `insert` child made).
    private func fetchDrop(_ context: ManagedContext) throws -> SideResult {
        var checksum: Int64 = 0
        var count = 0
        var held = 0
        do {
            let people = try context.fetch(FetchRequest(entityName: "Person"))
            for person in people { checksum &+= try values(of: person).checksum }
            count = people.count
            held = PeakMemory.currentKilobytes()
        }
        let after = PeakMemory.currentKilobytes()
        print(
            "DROPPED registered=\(context.registeredObjects.count) rss_held_kb=\(held)"
                + " rss_after_kb=\(after) rss_trimmed_kb=\(PeakMemory.trimmedKilobytes())")
        return SideResult(seconds: 0, checksum: checksum, count: count)
    }

    private func query(_ context: ManagedContext, queries: Int, budget: Double, start: Double)
        throws -> SideResult
    {
        var request = FetchRequest(
            entityName: "Person", predicate: try Predicate(format: Workload.queryFormat),
            sortDescriptors: [SortDescriptor("name")])
        request.fetchLimit = Workload.queryLimit
        var checksum: Int64 = 0
        var done = 0
        while done < queries {
            for person in try context.fetch(request) {
                checksum &+= try values(of: person).checksum
            }
            done += 1
            if Clock.now() - start >= budget { break }
        }
        return SideResult(seconds: 0, checksum: checksum, count: done)
    }

    private func updateAll(_ context: ManagedContext) throws -> SideResult {
        let people = try context.fetch(FetchRequest(entityName: "Person"))
        var checksum: Int64 = 0
        for person in people {
            guard let score: Double = person["score"] else {
                throw BenchError.failed("person \(person.objectID) has no score")
            }
            let updated = Workload.updatedScore(score)
            try person.set(updated, for: "score")
            checksum &+= Int64((updated * 10).rounded())
        }
        try context.save()
        retained.values.append(people)
        return SideResult(seconds: 0, checksum: checksum, count: people.count)
    }

    private func prefetch(_ context: ManagedContext) throws -> SideResult {
        var request = FetchRequest(entityName: "Team")
        request.relationshipKeyPathsForPrefetching = ["members"]
        let teams = try context.fetch(request)
        var checksum: Int64 = 0
        var members = 0
        for team in teams {
            guard let name: String = team["name"] else {
                throw BenchError.failed("team \(team.objectID) has no name")
            }
            checksum &+= Int64(name.utf8.count)
            for person in try team.objects(for: "members") {
                checksum &+= try values(of: person).checksum
                members += 1
            }
        }
        retained.values.append(teams)
        return SideResult(seconds: 0, checksum: checksum, count: members)
    }

    private func deleteAll(_ context: ManagedContext) throws -> SideResult {
        let people = try context.fetch(FetchRequest(entityName: "Person"))
        let teams = try context.fetch(FetchRequest(entityName: "Team"))
        for person in people { context.delete(person) }
        for team in teams { context.delete(team) }
        try context.save()
        retained.values.append(people)
        retained.values.append(teams)
        return SideResult(
            seconds: 0, checksum: Int64(people.count + teams.count), count: people.count)
    }
}
