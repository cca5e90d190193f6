import Foundation
import PostgresClient
import Testing

@testable import ObjectGraph

/// Reading many rows at once from a PostgreSQL store: prefetching and faults take one statement
/// per relationship or batch (the keys bound as one array), not one per object; counted
/// through the store's SQL log.
@Suite("PostgreSQL batching and prefetching")
struct PostgresBatchingTests {
    /// The statements a store logs, kept for counting.
    final class StatementLog: @unchecked Sendable {
        // `lock` guards `statements`.
        private let lock = NSLock()
        private var statements: [String] = []

        /// Options logging every statement here.
        var options: StoreOptions {
            var options = StoreOptions()
            options.sqlDebugLevel = 1
            options.sqlLogHandler = SQLLogHandler { [self] entry in
                lock.withLock { statements.append(entry.sql) }
            }
            return options
        }

        /// The SELECTs logged since the last call.
        func takeSelects() -> [String] {
            lock.withLock {
                defer { statements = [] }
                return statements.filter { $0.hasPrefix("SELECT") }
            }
        }
    }

    /// A league of `teams` teams of `size` members each (the roster the members in reverse),
    /// every member in two of three clubs.
    static func seed(_ url: URL, teams: Int, size: Int) throws {
        let context = try PostgresStoreTests.open(url)
        var clubs: [ManagedObject] = []
        for title in ["chess", "go", "bridge"] {
            let club = try context.insert("Club")
            try club.set(title, for: "title")
            clubs.append(club)
        }
        for number in 0..<teams {
            let team = try context.insert("Team")
            try team.set("T\(number)", for: "name")
            var members: [ManagedObject] = []
            for index in 0..<size {
                let person = try context.insert(index == 0 ? "Player" : "Person")
                try person.set("P\(number)-\(index)", for: "name")
                try person.setObjects(
                    [clubs[index % 3], clubs[(index + 1) % 3]], for: "clubs")
                members.append(person)
            }
            try team.setObjects(members, for: "members")
            try team.setObjects(members.reversed(), for: "roster")
        }
        try context.save()
    }

    @Test("prefetching a to-many, an ordered to-many and a many-to-many takes one query each")
    func prefetchOneQueryEach() throws {
        let url = try PostgresStoreTests.freshURL()
        try Self.seed(url, teams: 6, size: 4)
        let log = StatementLog()
        let context = try PostgresStoreTests.open(url, options: log.options)
        _ = log.takeSelects()
        var request = FetchRequest(entityName: "Team")
        request.sortDescriptors = [SortDescriptor("name")]
        request.relationshipKeyPathsForPrefetching = ["members", "roster", "members.clubs"]
        let teams = try context.fetch(request)
        #expect(teams.count == 6)
        // The teams, their members, their rosters, and the clubs of the members (once for the
        // Persons, once for the Players: the context prefetches by entity). The sort by name
        // first reads the names the evaluator ranks (`SELECT DISTINCT`), left out here.
        let selects = log.takeSelects().filter { !$0.hasPrefix("SELECT DISTINCT") }
        #expect(selects.count == 5, "\(selects.joined(separator: "\n"))")
        #expect(selects.dropFirst().allSatisfy { $0.contains("= ANY($1::bigint[])") })
        for (number, team) in teams.enumerated() {
            let members = try team.objects(for: "members").compactMap { $0["name"] as String? }
            #expect(Set(members) == Set((0..<4).map { "P\(number)-\($0)" }))
            let roster = try team.objects(for: "roster").compactMap { $0["name"] as String? }
            #expect(roster == (0..<4).reversed().map { "P\(number)-\($0)" })
            for member in try team.objects(for: "members") {
                #expect(try member.objects(for: "clubs").count == 2)
            }
        }
        // Everything was loaded by the prefetch: reading it took no statement.
        #expect(log.takeSelects() == [])
    }

    @Test("to-one targets of many objects fault in with one query")
    func faultsInOneQuery() throws {
        let url = try PostgresStoreTests.freshURL()
        try Self.seed(url, teams: 5, size: 3)
        let log = StatementLog()
        let context = try PostgresStoreTests.open(url, options: log.options)
        _ = log.takeSelects()
        var request = FetchRequest(entityName: "Person")
        request.relationshipKeyPathsForPrefetching = ["team"]
        let people = try context.fetch(request)
        #expect(people.count == 15)
        // The people (one table), then their five teams by one key array.
        let selects = log.takeSelects()
        #expect(selects.count == 2, "\(selects.joined(separator: "\n"))")
        let teams = Set(try people.compactMap { try $0.object(for: "team")?["name"] as String? })
        #expect(teams == Set((0..<5).map { "T\($0)" }))
        #expect(log.takeSelects() == [])
    }

    @Test("the SQL log shows the store's statements at each level")
    func sqlLogLevels() throws {
        let url = try PostgresStoreTests.freshURL()
        let entries = Locked<[SQLLogEntry]>([])
        var options = StoreOptions()
        options.sqlDebugLevel = 3
        options.sqlLogHandler = SQLLogHandler { entry in entries.withLock { $0.append(entry) } }
        let context = try PostgresStoreTests.open(url, options: options)
        let team = try context.insert("Team")
        try team.set("Red", for: "name")
        try context.save()
        let logged = entries.withLock { $0 }
        let insert = try #require(logged.first { $0.sql.hasPrefix("INSERT INTO \"ZTEAM\"") })
        #expect(insert.rowsChanged == 1)
        #expect(insert.arguments?.contains(.text("Red")) == true)
        #expect(logged.contains { $0.sql == "COMMIT" })
    }
}
