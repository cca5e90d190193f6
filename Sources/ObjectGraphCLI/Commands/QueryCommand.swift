import Foundation
import ObjectGraph

/// `objectgraph query [--model MODEL] --entity NAME [--sort KEY[:desc]] [--limit N]
/// [--sql | --explain] [--quiet] STORE 'PREDICATE'`: the objects matching a predicate, the SQL that finds
/// them, or SQLite's plan for it.
struct QueryCommand: Command {
    static let name = "query"
    static let abstract = "Print the objects of a store that match a predicate."
    static let help = """
        OVERVIEW: Print the objects of a store that match a predicate, as 'dump' prints them,
        or with --sql the SQL and bound arguments a SQLite store runs for it, or with --explain
        SQLite's query plan for it. The store is opened read-only, as 'dump' opens it: nothing
        in its folder changes. Progress shows on standard error while the query runs and the
        objects are written (a bar on a terminal, lines after a second elsewhere).

        STORE may be a postgresql:// URL (a PostgreSQL store, read in a read-only session;
        give --model, such a store keeps no model); its password is never printed.

        USAGE: objectgraph query [--model MODEL] --entity NAME [--sort KEY[:desc]]... [--limit N]
                                 [--sql | --explain] [--quiet] STORE ['PREDICATE']

        OPTIONS:
          --model MODEL      The .xcdatamodeld, .xcdatamodel or contents file. Without
                             it, the model the store keeps inside it (Core Data's
                             Z_MODELCACHE).
          --entity NAME      The entity to fetch (subentities included).
          --sort KEY[:desc]  Sort by a key path; repeat for more keys.
          --limit N          At most N objects.
          --sql              Print the SQL instead of the objects, or the line
                             '-- evaluated in memory: REASON' when the fetch runs in memory.
          --explain          Print how the fetch runs instead of the objects: the SQL, SQLite's
                             query plan as a tree (which index, which scans, where it sorts),
                             and which parts are evaluated in memory, and why.
          -q, --quiet        Show no progress.
          -h, --help         Show help.

        EXIT: 0 success, 1 the predicate does not parse, 2 usage or unreadable input.

        """

    static func run(_ arguments: [String], io: CommandIO) -> Int32 {
        var model: String?
        var entity: String?
        var sorts: [ObjectGraph.SortDescriptor] = []
        var limit = 0
        var showSQL = false
        var explain = false
        var quiet = false
        var positional: [String] = []
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            switch argument {
            case "--model", "--entity", "--sort", "--limit":
                guard index + 1 < arguments.count else {
                    return usageError("\(argument) needs a value", io: io)
                }
                let value = arguments[index + 1]
                switch argument {
                case "--model": model = value
                case "--entity": entity = value
                case "--sort":
                    let parts = value.split(separator: ":", maxSplits: 1).map(String.init)
                    guard let key = parts.first, !key.isEmpty,
                        parts.count == 1 || ["asc", "desc"].contains(parts[1])
                    else { return usageError("--sort takes KEY or KEY:desc", io: io) }
                    sorts.append(
                        ObjectGraph.SortDescriptor(
                            key, ascending: parts.count == 1 || parts[1] == "asc"))
                default:
                    guard let number = Int(value), number >= 0 else {
                        return usageError("--limit takes a whole number", io: io)
                    }
                    limit = number
                }
                index += 2
            case "--sql":
                showSQL = true
                index += 1
            case "--explain":
                explain = true
                index += 1
            case "--quiet", "-q":
                quiet = true
                index += 1
            case "--":
                positional += arguments[(index + 1)...]
                index = arguments.count
            default:
                if argument.hasPrefix("--") {
                    return usageError("unknown option \(argument)", io: io)
                }
                positional.append(argument)
                index += 1
            }
        }
        guard let entity else { return usageError("--entity is required", io: io) }
        guard !(showSQL && explain) else {
            return usageError("give --sql or --explain, not both", io: io)
        }
        guard positional.count == 1 || positional.count == 2 else {
            return usageError("give a STORE and optionally a PREDICATE", io: io)
        }
        var request = FetchRequest(entityName: entity)
        if positional.count == 2 {
            do {
                request.predicate = try ObjectGraph.Predicate(format: positional[1])
            } catch {
                io.write("\(error)\n")
                return ExitStatus.finding
            }
        }
        request.sortDescriptors = sorts
        request.fetchLimit = limit
        do {
            let (loaded, context) = try StoreOpening.open(model: model, store: positional[0])
            guard loaded.entity(named: entity) != nil else {
                return usageError("the model has no entity '\(entity)'", io: io)
            }
            if showSQL {
                io.write(try context.sqlLog(for: request) + "\n")
                return ExitStatus.success
            }
            if explain {
                io.write(try context.explain(request).description + "\n")
                return ExitStatus.success
            }
            try writeObjects(request, context: context, model: loaded, quiet: quiet, io: io)
            return ExitStatus.success
        } catch {
            io.writeError("error: \(error)\n")
            return ExitStatus.usage
        }
    }

    /// Writes the objects `request` fetches, a line each, with the progress on standard
    /// error: the time the query takes, then objects written of those found. The objects are
    /// loaded a batch at a time, so a large result never sits in memory whole.
    static func writeObjects(
        _ request: FetchRequest<ManagedObject>, context: ManagedContext, model: EntityModel,
        quiet: Bool, io: CommandIO
    ) throws {
        let entity = request.entityName ?? "objects"
        let display = ProgressDisplay(
            command: Self.name, io: io, mode: ProgressDisplay.mode(quiet: quiet, io: io))
        defer { display.finish() }
        var batched = request
        batched.fetchBatchSize = 256
        let objects = try display.showWhile(
            ProgressDisplay.Report(
                fraction: nil, counts: nil, unit: "", detail: "fetching \(entity)")
        ) { try context.fetch(batched) }
        for (index, object) in objects.enumerated() {
            io.write(try StoreJSON.line(StoreJSON.object(object, model: model)) + "\n")
            let done = index + 1
            if done % 256 == 0 || done == objects.count {
                display.show(
                    ProgressDisplay.Report(
                        fraction: Double(done) / Double(objects.count),
                        counts: (done, objects.count), unit: "objects",
                        detail: "writing \(entity)"))
            }
        }
    }
}
