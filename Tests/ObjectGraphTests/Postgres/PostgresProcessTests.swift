import Foundation
import Testing

@testable import ObjectGraph

/// Four processes (`objectgraph _shared-edits`), each with its own coordinator on one
/// PostgreSQL schema, insert items and edit one shared counter and one shared board at once
/// under each merge policy (issue 22). The final state is what the policy promises, no insert
/// is lost, the history holds every insert once with gapless transaction numbers, and a
/// context in this process that merges remote changes ends with the final state.
@Suite(
    "Processes sharing a PostgreSQL store", .serialized,
    .enabled(if: RemoteChangeProcessTests.tool != nil, "the objectgraph executable is not built"))
struct PostgresProcessTests {
    /// Processes started together.
    static let processes = 4
    /// Rounds each process makes.
    static let rounds = 12

    /// `Counter(value)`, `Board(slot0…slot3, last)`, `Item(worker, seq)`.
    static let modelXML = """
        <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
        <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" \
        lastSavedToolsVersion="23231" systemVersion="24A335" minimumToolsVersion="Automatic" \
        sourceLanguage="Swift" userDefinedModelVersionIdentifier="">
            <entity name="Counter" representedClassName="Counter" syncable="YES">
                <attribute name="value" optional="YES" attributeType="Integer 64" \
        defaultValueString="0" usesScalarValueType="YES"/>
            </entity>
            <entity name="Board" representedClassName="Board" syncable="YES">
                <attribute name="slot0" optional="YES" attributeType="Integer 64" \
        defaultValueString="0" usesScalarValueType="YES"/>
                <attribute name="slot1" optional="YES" attributeType="Integer 64" \
        defaultValueString="0" usesScalarValueType="YES"/>
                <attribute name="slot2" optional="YES" attributeType="Integer 64" \
        defaultValueString="0" usesScalarValueType="YES"/>
                <attribute name="slot3" optional="YES" attributeType="Integer 64" \
        defaultValueString="0" usesScalarValueType="YES"/>
                <attribute name="last" optional="YES" attributeType="String"/>
            </entity>
            <entity name="Item" representedClassName="Item" syncable="YES">
                <attribute name="worker" optional="YES" attributeType="Integer 64" \
        defaultValueString="0" usesScalarValueType="YES"/>
                <attribute name="seq" optional="YES" attributeType="Integer 64" \
        defaultValueString="0" usesScalarValueType="YES"/>
            </entity>
        </model>
        """

    /// The model, read from its XML.
    static func model() throws -> EntityModel {
        try EntityModel(xmlData: Data(modelXML.utf8), file: "Sharing.xcdatamodel")
    }

    /// Writes the model into `folder`; returns its `.xcdatamodel` folder.
    static func writeModel(in folder: URL) throws -> URL {
        let model = folder.appendingPathComponent("Sharing.xcdatamodel")
        try FileManager.default.createDirectory(at: model, withIntermediateDirectories: true)
        try Data(modelXML.utf8).write(to: model.appendingPathComponent("contents"))
        return model
    }

    /// Inserts the one counter (0) and the one board (slots 0, `last` "-") and saves.
    static func seed(_ context: ManagedContext) throws -> (ManagedObject, ManagedObject) {
        let counter = try context.insert("Counter")
        try counter.set(Int64(0), for: "value")
        let board = try context.insert("Board")
        for slot in 0..<4 { try board.set(Int64(0), for: "slot\(slot)") }
        try board.set("-", for: "last")
        try context.save()
        return (counter, board)
    }

    /// Runs `tool` with `arguments` to its end: its exit status, output and errors.
    static func run(_ tool: URL, _ arguments: [String]) throws -> (Int32, String, String) {
        let process = try start(tool, arguments)
        return finish(process)
    }

    static func start(_ tool: URL, _ arguments: [String]) throws -> (Process, Pipe, Pipe) {
        let process = Process()
        process.executableURL = tool
        process.arguments = arguments
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        return (process, output, errors)
    }

    static func finish(_ running: (Process, Pipe, Pipe)) -> (Int32, String, String) {
        let (process, output, errors) = running
        let printed = String(
            decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let complaints = String(
            decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, printed, complaints)
    }

    /// What one process printed.
    struct Report: Equatable {
        var saves = 0, conflicts = 0, retries = 0, took = 0
        var slot: Int64 = 0
        var counter: Int64 = 0
        var board: [Int64] = []
        var last = ""

        /// Reads `saves S conflicts C retries R took T slot L counter V board B0 B1 B2 B3 last X`.
        init?(_ line: String) {
            let words = line.split(whereSeparator: \.isWhitespace).map(String.init)
            func number(after key: String, _ offset: Int = 1) -> Int64? {
                guard let at = words.firstIndex(of: key), at + offset < words.count else {
                    return nil
                }
                return Int64(words[at + offset])
            }
            guard let saves = number(after: "saves"), let conflicts = number(after: "conflicts"),
                let retries = number(after: "retries"), let took = number(after: "took"),
                let slot = number(after: "slot"), let counter = number(after: "counter"),
                let at = words.firstIndex(of: "last"), at + 1 < words.count
            else { return nil }
            (self.saves, self.conflicts, self.retries, self.took) = (
                Int(saves), Int(conflicts), Int(retries), Int(took)
            )
            self.slot = slot
            self.counter = counter
            board = (1...4).compactMap { number(after: "board", $0) }
            last = words[at + 1]
        }
    }

    /// The counter and board as stored: `(value, [slot0…slot3], last)`.
    struct Shared: Equatable, CustomStringConvertible {
        var counter: Int64
        var board: [Int64]
        var last: String

        init(counter: ManagedObject, board: ManagedObject) {
            self.counter = counter["value"] as Int64? ?? -1
            self.board = (0..<4).map { board["slot\($0)"] as Int64? ?? -1 }
            last = board["last"] as String? ?? ""
        }

        init(_ report: Report) {
            counter = report.counter
            board = report.board
            last = report.last
        }

        var description: String { "counter \(counter) board \(board) last \(last)" }
    }

    /// The counter and the board are separate objects, and a policy merges object by object:
    /// the stored counter is the counter as one process held it after its last save, and the
    /// stored board (slots and `last`) the board as one process (maybe another) held it. A
    /// process's last save may change only the counter, leaving its view of the board as it
    /// was, so the two need not come from the same process.
    static func expectEachObjectFromOneView(_ final: Shared, _ reports: [Report]) {
        let views = reports.map(Shared.init)
        #expect(views.contains { $0.counter == final.counter }, "\(final) \(views)")
        #expect(
            views.contains { $0.board == final.board && $0.last == final.last },
            "\(final) \(views)")
    }

    @Test(
        "4 processes under each merge policy end in the state the policy promises",
        arguments: ["error", "storeTrump", "objectTrump", "overwrite", "rollback"])
    func fourProcesses(policy: String) async throws {
        let tool = try #require(RemoteChangeProcessTests.tool)
        let folder = try TestSupport.makeTemporaryFolder()
        defer { TestSupport.removeTemporaryFolder(folder) }
        let modelFolder = try Self.writeModel(in: folder)
        let url = try PostgresStoreTests.freshURL()
        let listening = try PostgresRemoteChangeTests.open(url, notifies: true, history: true)
        let changes = listening.remoteChanges()
        let watcher = ManagedContext(coordinator: listening)
        watcher.automaticallyMergesRemoteChanges = true
        let (counter, board) = try Self.seed(watcher)

        let gate = folder.appendingPathComponent("go")
        var running: [(Process, Pipe, Pipe)] = []
        for worker in 0..<Self.processes {
            running.append(
                try Self.start(
                    tool,
                    [
                        "_shared-edits", "--model", modelFolder.path, "--store",
                        url.absoluteString, "--worker", "\(worker)", "--times", "\(Self.rounds)",
                        "--policy", policy, "--start-after", gate.path, "--history", "on",
                    ]))
        }
        try Data().write(to: gate)
        var reports: [Report] = []
        for process in running {
            let (status, output, errors) = Self.finish(process)
            #expect(status == 0, "\(errors)")
            #expect(errors.isEmpty)
            let report = Report(output)
            #expect(report != nil, "\(output)")
            if let report { reports.append(report) }
        }
        try #require(reports.count == Self.processes)
        print(
            "\(policy): "
                + reports.map {
                    "saves \($0.saves) conflicts \($0.conflicts) retries \($0.retries) took \($0.took)"
                }
                .joined(separator: "; "))

        // The final state, read by a new coordinator.
        let reader = ManagedContext(
            coordinator: try PostgresRemoteChangeTests.open(url, notifies: false, history: false))
        let storedCounter = try #require(
            try reader.fetch(FetchRequest(entityName: "Counter")).first)
        let storedBoard = try #require(try reader.fetch(FetchRequest(entityName: "Board")).first)
        let final = Shared(counter: storedCounter, board: storedBoard)
        let total = Int64(Self.processes * Self.rounds)
        let rounds = Int64(Self.rounds)
        let everySlotFull = [Int64](repeating: rounds, count: Self.processes)
        let lastRounds = Set((0..<Self.processes).map { "\($0):\(Self.rounds)" })

        // No insert is lost, under every policy.
        let items = try reader.fetch(FetchRequest(entityName: "Item"))
        let pairs = items.map { "\($0["worker"] as Int64? ?? -1):\($0["seq"] as Int64? ?? -1)" }
        #expect(pairs.count == Int(total))
        #expect(Set(pairs).count == Int(total))

        switch policy {
        case "error", "storeTrump":
            // Every increment retried until written: nothing lost.
            #expect(reports.allSatisfy { $0.took == Self.rounds })
            #expect(final.counter == total)
            #expect(final.board == everySlotFull)
            if policy == "error" {
                #expect(reports.allSatisfy { $0.saves == Self.rounds })
                #expect(lastRounds.contains(final.last), "\(final)")
            }
        case "objectTrump":
            // One save per round (saved again if the merge attempts ran out under load); the
            // properties each process alone changes all kept; the last writer's values
            // everywhere else.
            #expect(reports.allSatisfy { $0.saves == Self.rounds })
            #expect(final.board == everySlotFull)
            #expect(final.counter <= total)
            Self.expectEachObjectFromOneView(final, reports)
        case "overwrite":
            // The last writer's whole objects, as it held them.
            #expect(reports.allSatisfy { $0.saves == Self.rounds })
            Self.expectEachObjectFromOneView(final, reports)
            #expect(lastRounds.contains(final.last), "\(final)")
        default:
            // rollback: a conflicting object's changes are dropped, the rest is saved; every
            // increment that was written counts.
            #expect(reports.allSatisfy { $0.saves == Self.rounds })
            #expect(final.counter == Int64(reports.map(\.took).reduce(0, +)))
            for (worker, report) in zip(0..., reports) {
                #expect(final.board[worker] == report.slot, "worker \(worker): \(report)")
            }
        }

        // The history: numbered without gaps, every insert once.
        let history = try listening.fetchHistory(HistoryRequest()).transactions
        #expect(history.map(\.transactionNumber) == Array(1...Int64(history.count)))
        let inserted = history.flatMap(\.changes).filter {
            $0.changeType == .insert && $0.changedObjectID.entityName == "Item"
        }
        #expect(inserted.count == Int(total))
        #expect(Set(inserted.map(\.changedObjectID)).count == Int(total))

        // The context here merged the other processes' saves as they came.
        let merged = await PostgresRemoteChangeTests.merge(changes, into: watcher, within: 30) {
            Shared(counter: counter, board: board) == final
        }
        #expect(merged, "\(Shared(counter: counter, board: board)) != \(final)")
    }
}
