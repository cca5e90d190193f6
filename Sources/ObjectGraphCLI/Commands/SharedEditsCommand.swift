import Foundation
import ObjectGraph

/// `objectgraph _shared-edits` (hidden, for multi-process tests): one of several processes
/// editing the same objects of one store (a SQLite file or a PostgreSQL URL) under a merge
/// policy, each with its own coordinator.
///
/// The model must have `Counter(value: Integer 64)`, `Board(slot0 … slot3: Integer 64, last:
/// String)` and `Item(worker: Integer 64, seq: Integer 64)`, and the store must hold one
/// counter and one board. Worker `K` (0 to 3) makes `--times` rounds; round `i` inserts
/// `Item(worker: K, seq: i)`, increments the counter, sets `slotK` to `i` and `last` to `"K:i"`,
/// and saves:
///
/// - `error`: a save that conflicts throws; the counter and board are read again (their
///   changes dropped), and the round is made again until a save passes;
/// - `storeTrump`: the round is made again until a save writes the counter (the did-save
///   lists it); the store's values won the others;
/// - `objectTrump`, `overwrite`, `rollback`: one save per round, as the policy merges it
///   (saved again, and counted as a conflict, when the policy's merge attempts run out while
///   the others keep saving).
///
/// Prints one line: `saves S conflicts C retries R took T slot L counter V board b0 b1 b2 b3
/// last X`, where `T` counts the rounds whose save wrote the counter, `L` the last round
/// whose save wrote `slotK`, and `V`, `b0…b3`, `X` are the counter and board as this process
/// holds them after its last save.
struct SharedEditsCommand: Command {
    static let name = "_shared-edits"
    static let abstract = "Edit shared objects from several processes (tests; not listed)"
    static let help = """
        OVERVIEW: Edit one Counter and one Board shared with other processes, under a merge
        policy (hidden command, for multi-process tests).

        USAGE: objectgraph _shared-edits --model <model> --store <file-or-url> --worker K
                                         [--times N] [--policy <policy>]
                                         [--start-after <file>] [--history on|off]

        OPTIONS:
          --model <model>        A model with Counter(value), Board(slot0…slot3, last) and
                                 Item(worker, seq).
          --store <file-or-url>  A SQLite store, or a postgresql:// URL, holding one Counter
                                 and one Board.
          --worker K             This process's number, 0 to 3 (its Board slot).
          --times N              How many rounds (default 20).
          --policy <policy>      error, storeTrump, objectTrump, overwrite or rollback
                                 (default error).
          --start-after <file>   Wait (up to 60 s) until this file exists before the first
                                 round (after opening the store).
          --history on|off       Open the store with persistent history tracking (default off).

        Prints "saves S conflicts C retries R took T slot L counter V board B0 B1 B2 B3 last X".

        """

    static func run(_ arguments: [String], io: CommandIO) -> Int32 {
        guard
            let options = workerOptions(
                arguments,
                allowed: [
                    "--model", "--store", "--worker", "--times", "--policy", "--start-after",
                    "--history",
                ], io: io)
        else { return ExitStatus.usage }
        let policies: [String: MergePolicy] = [
            "error": .error, "storeTrump": .mergeByPropertyStoreTrump,
            "objectTrump": .mergeByPropertyObjectTrump, "overwrite": .overwrite,
            "rollback": .rollback,
        ]
        guard let modelPath = options["--model"], let store = options["--store"],
            let worker = Int(options["--worker"] ?? ""), (0...3).contains(worker),
            let times = Int(options["--times"] ?? "20"), times >= 0,
            let policy = policies[options["--policy"] ?? "error"],
            let history = ["on": true, "off": false][options["--history"] ?? "off"]
        else {
            return usageError(
                "expected --model, --store, --worker 0-3, numeric --times, --policy error,"
                    + " storeTrump, objectTrump, overwrite or rollback, --history on or off",
                io: io)
        }
        do {
            let coordinator = try WorkerCommandSupport.coordinator(
                model: modelPath, store: store, history: history)
            let context = ManagedContext(coordinator: coordinator)
            context.mergePolicy = policy
            guard let counter = try context.fetch(FetchRequest(entityName: "Counter")).first,
                let board = try context.fetch(FetchRequest(entityName: "Board")).first
            else {
                io.writeError("error: the store holds no Counter or no Board\n")
                return ExitStatus.usage
            }
            if let gate = options["--start-after"], !WorkerCommandSupport.waitFor(gate, seconds: 60)
            {
                io.writeError("error: '\(gate)' did not appear within 60 seconds\n")
                return ExitStatus.usage
            }
            var worked = Rounds(worker: worker, policy: policy)
            try worked.run(times: times, counter: counter, board: board, in: context)
            let slots = (0..<4).map { "\(board["slot\($0)"] as Int64? ?? 0)" }
            io.write(
                "saves \(worked.saves) conflicts \(worked.conflicts) retries \(worked.retries)"
                    + " took \(worked.took) slot \(worked.lastSlot)"
                    + " counter \(counter["value"] as Int64? ?? 0)"
                    + " board \(slots.joined(separator: " ")) last \(board["last"] as String? ?? "-")\n"
            )
            return ExitStatus.success
        } catch {
            io.writeError("error: \(error)\n")
            return ExitStatus.usage
        }
    }

    /// One worker's rounds and what they did.
    struct Rounds {
        let worker: Int
        let policy: MergePolicy
        var saves = 0
        var conflicts = 0
        var retries = 0
        var took = 0
        var lastSlot: Int64 = 0
        /// Saves one round may take before the run gives up.
        static let maxAttempts = 2_000

        mutating func run(
            times: Int, counter: ManagedObject, board: ManagedObject, in context: ManagedContext
        ) throws {
            var written: ContextChange?
            let observation = context.observe { note in
                if note.kind == .didSave { written = note.changes }
            }
            defer { observation.cancel() }
            guard times > 0 else { return }
            for round in 1...times {
                let item = try context.insert("Item")
                try item.set(Int64(worker), for: "worker")
                try item.set(Int64(round), for: "seq")
                var attempts = 0
                while true {
                    attempts += 1
                    guard attempts <= Self.maxAttempts else {
                        throw IncrementCommand.GaveUp(
                            increment: round, times: times, attempts: attempts - 1)
                    }
                    written = nil
                    try counter.set((counter["value"] as Int64? ?? 0) + 1, for: "value")
                    try board.set(Int64(round), for: "slot\(worker)")
                    try board.set("\(worker):\(round)", for: "last")
                    do {
                        try saveOutlasting(context)
                        saves += 1
                    } catch SaveError.conflicts where policy == .error {
                        conflicts += 1
                        retries += 1
                        try context.refresh(counter, mergeChanges: false)
                        try context.refresh(board, mergeChanges: false)
                        continue
                    }
                    let updated = written?.updated ?? []
                    if updated.contains(board.objectID) { lastSlot = Int64(round) }
                    if updated.contains(counter.objectID) {
                        took += 1
                        break
                    }
                    // Under store trump another process's counter won: increment that.
                    guard policy == .mergeByPropertyStoreTrump else { break }
                    retries += 1
                }
            }
        }

        /// Saves; under a policy that merges, saves again when the policy's merge attempts
        /// ran out while others kept saving the same objects (``SaveError/conflicts(_:)``,
        /// counted as a conflict: the context holds the merged objects, ready to save).
        private mutating func saveOutlasting(_ context: ManagedContext) throws {
            var attempts = 0
            while true {
                do {
                    return try context.save()
                } catch SaveError.conflicts where policy != .error && attempts < Self.maxAttempts {
                    attempts += 1
                    conflicts += 1
                }
            }
        }
    }
}
