import Foundation
import ObjectGraph

/// `objectgraph _increment` (hidden, for multi-process tests): increments the one `Counter`
/// of a SQLite store (or a PostgreSQL schema, given its URL) again and again, saving after each increment, while other processes do
/// the same on the same file.
///
/// The model must have an entity `Counter` with an attribute `value` (Integer 64), and the
/// store must hold one counter already (the command creates nothing, so that processes started
/// together do not race to create the file).
///
/// Under `storeTrump` the loop is the one an app writes to lose no update:
///
/// ```swift
/// context.mergePolicy = .mergeByPropertyStoreTrump
/// var written = false
/// let observation = context.observe { note in
///     if note.kind == .didSave { written = note.changes.updated.contains(counter.objectID) }
/// }
/// repeat {
///     written = false
///     let value = counter["value"] as Int64? ?? 0
///     try counter.set(value + 1, for: "value")
///     try context.save()
///     // Another process saved the counter since this one read it: the store's value won
///     // and the save wrote nothing for it (the did-save does not list it). The counter now
///     // holds the store's value; increment that.
/// } while !written
/// ```
///
/// Each increment may take at most `--max-attempts` saves (1,000 unless given); then the
/// command stops with an error naming the increment, instead of looping for ever (a counter
/// another writer keeps winning, or whose saves write nothing).
///
/// Under `error` every conflicting save throws ``SaveError/conflicts(_:)``; the command
/// counts it, reads the counter again (``ManagedContext/refresh(_:mergeChanges:)`` with
/// `false`, dropping the increment) and goes on to the next increment. It prints
/// `saved S conflicts C retries R` at the end.
struct IncrementCommand: Command {
    static let name = "_increment"
    static let abstract = "Increment a counter from several processes (tests; not listed)"
    static let help = """
        OVERVIEW: Increment the one Counter of a store, saving after each increment
        (hidden command, for multi-process tests).

        USAGE: objectgraph _increment --model <model> --store <file> [--times N]
                                      [--policy storeTrump|error] [--start-after <file>]
                                      [--pause-ms N] [--max-attempts N] [--history on|off]

        OPTIONS:
          --model <model>        A model with Counter(value: Integer 64).
          --store <file>         A SQLite store (or a postgresql:// URL) holding one
                                 Counter.
          --times N              How many increments (default 50).
          --policy <policy>      storeTrump (retry until each increment is written, the
                                 default) or error (count conflicts, drop those increments).
          --start-after <file>   Wait (up to 30 s) until this file exists before the first
                                 increment (after opening the store).
          --pause-ms N           Milliseconds to wait after each increment (default 0).
          --max-attempts N       Saves one increment may take under storeTrump before the
                                 command gives up with an error (default 1000).
          --history on|off       Open the store with persistent history tracking, so
                                 each save records a transaction (default off).

        Prints "saved S conflicts C retries R" when done.

        """

    static func run(_ arguments: [String], io: CommandIO) -> Int32 {
        guard
            let options = workerOptions(
                arguments,
                allowed: [
                    "--model", "--store", "--times", "--policy", "--start-after", "--pause-ms",
                    "--max-attempts", "--history",
                ], io: io)
        else { return ExitStatus.usage }
        let policies: [String: MergePolicy] = [
            "storeTrump": .mergeByPropertyStoreTrump, "error": .error,
        ]
        guard let modelPath = options["--model"], let storePath = options["--store"],
            let times = Int(options["--times"] ?? "50"), times >= 0,
            let policy = policies[options["--policy"] ?? "storeTrump"],
            let pause = Double(options["--pause-ms"] ?? "0"), pause >= 0, pause <= 1000,
            let attempts = Int(options["--max-attempts"] ?? "\(defaultMaxAttempts)"),
            attempts >= 1,
            let history = ["on": true, "off": false][options["--history"] ?? "off"]
        else {
            return usageError(
                "expected --model, --store, numeric --times, --pause-ms (0-1000) and "
                    + "--max-attempts (1 or more), --policy storeTrump or error, "
                    + "--history on or off",
                io: io)
        }
        do {
            let coordinator = try WorkerCommandSupport.coordinator(
                model: modelPath, store: storePath, history: history)
            let context = ManagedContext(coordinator: coordinator)
            context.mergePolicy = policy
            guard let counter = try context.fetch(FetchRequest(entityName: "Counter")).first
            else {
                io.writeError("error: \(storePath) holds no Counter\n")
                return ExitStatus.usage
            }
            // Ready (model read, store open, counter loaded): start with the others.
            if let gate = options["--start-after"], !WorkerCommandSupport.waitFor(gate, seconds: 30)
            {
                io.writeError("error: '\(gate)' did not appear within 30 seconds\n")
                return ExitStatus.usage
            }
            var tally = Tally(pause: pause / 1000, maxAttempts: attempts)
            if policy == .error {
                try incrementReportingConflicts(counter, in: context, times: times, &tally)
            } else {
                try incrementRetrying(counter, in: context, times: times, &tally)
            }
            io.write("saved \(tally.saved) conflicts \(tally.conflicts) retries \(tally.retries)\n")
            return ExitStatus.success
        } catch {
            io.writeError("error: \(error)\n")
            return ExitStatus.usage
        }
    }

    /// What a run did.
    struct Tally {
        var saved = 0
        var conflicts = 0
        var retries = 0
        /// Seconds to wait after each increment is saved (so that processes interleave).
        var pause: TimeInterval = 0
        /// Saves one increment may take before the run gives up.
        var maxAttempts = IncrementCommand.defaultMaxAttempts

        /// Waits the pause (after an increment).
        func rest() {
            if pause > 0 { Thread.sleep(forTimeInterval: pause) }
        }
    }

    /// Under a store-trump policy: each increment is applied again to the store's value until
    /// a save writes it.
    private static func incrementRetrying(
        _ counter: ManagedObject, in context: ManagedContext, times: Int, _ tally: inout Tally
    ) throws {
        var written = false
        let observation = context.observe { note in
            if note.kind == .didSave { written = note.changes.updated.contains(counter.objectID) }
        }
        defer { observation.cancel() }
        for increment in 0..<times {
            var attempts = 0
            while true {
                guard attempts < tally.maxAttempts else {
                    throw GaveUp(increment: increment + 1, times: times, attempts: attempts)
                }
                attempts += 1
                written = false
                let value = counter["value"] as Int64? ?? 0
                try counter.set(value + 1, for: "value")
                do {
                    try context.save()
                } catch SaveError.conflicts {
                    // Others kept saving the counter through every merge attempt: read it
                    // again and retry.
                    tally.conflicts += 1
                    try context.refresh(counter, mergeChanges: false)
                }
                if written { break }
                // The store's value won (the counter holds it now): increment that.
                tally.retries += 1
            }
            tally.saved += 1
            tally.rest()
        }
    }

    /// Saves one increment may take before the command gives up.
    static let defaultMaxAttempts = 1_000

    /// An increment no save wrote within the attempts allowed.
    struct GaveUp: Error, CustomStringConvertible {
        /// Which increment (1-based) and of how many.
        let increment: Int
        let times: Int
        /// How many saves were tried for it.
        let attempts: Int

        /// What happened, and the likely causes.
        var description: String {
            "increment \(increment) of \(times) was not written after \(attempts) attempts: "
                + "every save lost to another writer's value of the counter, or wrote nothing "
                + "for it (is Counter.value transient?); giving up"
        }
    }

    /// Under the error policy: a conflicting save throws; the increment is dropped and the
    /// counter read again.
    private static func incrementReportingConflicts(
        _ counter: ManagedObject, in context: ManagedContext, times: Int, _ tally: inout Tally
    ) throws {
        for _ in 0..<times {
            let value = counter["value"] as Int64? ?? 0
            try counter.set(value + 1, for: "value")
            do {
                try context.save()
                tally.saved += 1
            } catch SaveError.conflicts {
                tally.conflicts += 1
                try context.refresh(counter, mergeChanges: false)
            }
            tally.rest()
        }
    }
}
