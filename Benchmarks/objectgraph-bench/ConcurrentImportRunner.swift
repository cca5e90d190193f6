import Foundation
import ObjectGraph

/// The ObjectGraph side of `concurrent_import`: one coordinator on a fresh SQLite file (WAL),
/// or a fresh PostgreSQL schema (`--store postgres`; the writers' saves run at once, each on a
/// connection of the store's pool), ``Workload/importWriters``
/// background contexts each inserting its slice of the people (the `insert` operation's shape,
/// with teams of its own) and saving every ``Workload/importBatch``, each driven by its own
/// thread through `performAndWait`, while a main-queue context that merges their saves
/// automatically (the view context of an app) counts the people every
/// ``Workload/importReadInterval`` on the main thread.
///
/// Opening the store is not timed; the clock stops once every writer has saved its last batch
/// and the view context has merged every save (its queue has run every merge handed to it) and
/// counted all the people.
struct ConcurrentImportRunner {
    let n: Int
    let url: URL
    /// The store's type: `.sqlite` or `.postgres`.
    var storeType: StoreType = .sqlite
    /// What the writers made, released only after timing.
    let retained: Retained

    func run() throws -> SideResult {
        let coordinator = StoreCoordinator(model: Workload.model())
        try coordinator.addStore(type: storeType, at: url)
        let start = Clock.now()
        let startCPU = Clock.cpu()
        let view = ManagedContext(coordinator: coordinator, concurrencyType: .mainQueue)
        view.name = "view"
        view.automaticallyMergesChangesFromParent = true
        let writers = (0..<Workload.importWriters).map { writer in
            let background = BackgroundContext(coordinator: coordinator)
            background.performAndWait { $0.name = "import \(writer)" }
            return background
        }
        let outcomes = WriterOutcomes()
        let n = self.n
        for (writer, background) in writers.enumerated() {
            let thread = Thread {
                let outcome = Result {
                    try Self.importSlice(writer: writer, n: n, into: background)
                }
                outcomes.record(outcome, of: writer)
            }
            thread.start()
        }
        // The view context's reader: the main thread serves the main queue (the merges) for
        // one interval, then counts.
        let people = FetchRequest(entityName: "Person")
        while outcomes.finished < writers.count {
            RunLoop.main.run(until: Date(timeIntervalSinceNow: Workload.importReadInterval))
            _ = try view.count(for: people)
        }
        // Every save posted its merge before its writer finished: once a block queued now has
        // run, the main queue has run them all.
        let merged = DoneFlag()
        DispatchQueue.main.async { merged.set() }
        while !merged.isSet {
            RunLoop.main.run(until: Date(timeIntervalSinceNow: 0.001))
        }
        let count = try view.count(for: people)
        let seconds = Clock.now() - start
        let cpuSeconds = Clock.cpu() - startCPU
        let checksum = try outcomes.checksum(writers: writers.count)
        guard count == n else {
            throw BenchError.failed("concurrent_import: the view context counts \(count) of \(n)")
        }
        retained.values.append(view)
        retained.values.append(writers)
        var result = SideResult(seconds: seconds, checksum: checksum, count: count)
        result.cpuSeconds = cpuSeconds
        return result
    }

    /// Writer `writer`'s import: its teams, then its people in batches, each batch inserted and
    /// saved in one `performAndWait` block. Returns the checksum of the people's values.
    private static func importSlice(writer: Int, n: Int, into background: BackgroundContext)
        throws -> Int64
    {
        let slice = Workload.importSlice(writer: writer, people: n)
        let teamCount = Workload.importTeamCount(people: n)
        // The writer's teams, made and used only inside the context's queue (the blocks below).
        var teams: [ManagedObject] = []
        var checksum: Int64 = 0
        var next = slice.lowerBound
        while next < slice.upperBound {
            let batch = next..<min(next + Workload.importBatch, slice.upperBound)
            try background.performAndWait { context in
                if teams.isEmpty {
                    for index in 0..<teamCount {
                        let team = try context.insert("Team")
                        try team.set(Workload.teamName(writer * teamCount + index), for: "name")
                        teams.append(team)
                    }
                }
                for index in batch {
                    checksum &+= try ObjectGraphRunner.insertPerson(
                        index, team: teams[(index - slice.lowerBound) % teamCount], into: context)
                }
                try context.save()
            }
            next = batch.upperBound
        }
        // Let go inside the queue (a managed object is the context's business to its end).
        background.performAndWait { _ in teams.removeAll() }
        return checksum
    }
}
