import Foundation
import ObjectGraph

/// `concurrent_save` on PostgreSQL: several processes, each with its own connection (and, for
/// ObjectGraph, its own coordinator and context), insert their own slices of the people at
/// once into one store, saving every ``Workload/importBatch`` people. Every writer waits for
/// the same wall-clock start (a writer whose process started late begins when it can); the
/// throughput of all of them together is the people saved over the time from the first
/// writer's start to the last writer's last commit. Keys are reserved before each save's
/// transaction, as a context obtains its objects' permanent IDs before it saves.
enum PostgresSavers {
    /// The people writer `writer` of `writers` inserts (contiguous slices, the last taking
    /// the remainder).
    static func slice(writer: Int, of writers: Int, people n: Int) -> Range<Int> {
        let size = n / writers
        return writer * size..<(writer == writers - 1 ? n : (writer + 1) * size)
    }

    /// How many teams each writer inserts (its own: writers share no object).
    static func teamCount(writers: Int, people n: Int) -> Int {
        max(1, Workload.teamCount(people: n) / writers)
    }

    /// Sleeps until `startAt` (seconds since 1970), when it is still ahead.
    static func wait(until startAt: Double) {
        let delay = startAt - Date().timeIntervalSince1970
        if delay > 0 { usleep(UInt32(delay * 1_000_000)) }
    }

    /// The result of a writer that began at `began` (seconds since 1970), now done.
    static func result(began: Double, startCPU: Double, checksum: Int64, count: Int)
        -> SideResult
    {
        var result = SideResult(
            seconds: Date().timeIntervalSince1970 - began, checksum: checksum, count: count)
        result.cpuSeconds = Clock.cpu() - startCPU
        result.startedAt = began
        return result
    }

    /// ObjectGraph's writer: a coordinator on `url`, one context, a save per batch.
    static func objectGraph(url: URL, n: Int, writer: Int, writers: Int, startAt: Double)
        throws -> SideResult
    {
        let coordinator = StoreCoordinator(model: Workload.model())
        try coordinator.addStore(type: .postgres, at: url)
        let context = ManagedContext(coordinator: coordinator)
        wait(until: startAt)
        let began = Date().timeIntervalSince1970
        let startCPU = Clock.cpu()
        let teamCount = teamCount(writers: writers, people: n)
        var teams: [ManagedObject] = []
        for index in 0..<teamCount {
            let team = try context.insert("Team")
            try team.set(Workload.teamName(writer * teamCount + index), for: "name")
            teams.append(team)
        }
        try context.save()
        var checksum: Int64 = 0
        let people = slice(writer: writer, of: writers, people: n)
        for batch in stride(
            from: people.lowerBound, to: people.upperBound, by: Workload.importBatch)
        {
            for index in batch..<min(batch + Workload.importBatch, people.upperBound) {
                checksum &+= try ObjectGraphRunner.insertPerson(
                    index, team: teams[Workload.team(ofPerson: index, teams: teamCount)],
                    into: context)
            }
            try context.save()
        }
        return result(began: began, startCPU: startCPU, checksum: checksum, count: people.count)
    }

    /// The raw writer: one connection, keys reserved in `Z_PRIMARYKEY`, then a transaction
    /// per batch.
    static func raw(_ db: RawPostgres, n: Int, writer: Int, writers: Int, startAt: Double)
        throws -> SideResult
    {
        wait(until: startAt)
        let began = Date().timeIntervalSince1970
        let startCPU = Clock.cpu()
        let teamCount = teamCount(writers: writers, people: n)
        let teams = try RawPostgresRunner.insertTeams(
            db, count: teamCount, firstName: writer * teamCount)
        var checksum: Int64 = 0
        let people = slice(writer: writer, of: writers, people: n)
        for batch in stride(
            from: people.lowerBound, to: people.upperBound, by: Workload.importBatch)
        {
            let range = batch..<min(batch + Workload.importBatch, people.upperBound)
            let first = try RawPostgresRunner.reserveKeys(db, entity: 1, count: range.count)
            checksum &+= try db.transaction {
                try RawPostgresRunner.insertPeople(db, range, firstKey: first, teamKeys: teams)
            }
        }
        return result(began: began, startCPU: startCPU, checksum: checksum, count: people.count)
    }
}
