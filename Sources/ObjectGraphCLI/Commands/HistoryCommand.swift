import Foundation
import ObjectGraph

/// `objectgraph history [--model MODEL] STORE [--after TOKEN] [--changes] [--quiet]`: a store's
/// persistent history as JSON lines.
struct HistoryCommand: Command {
    static let name = "history"
    static let abstract = "Print a store's persistent history as JSON lines."
    static let help = """
        OVERVIEW: Print the persistent history a SQLite store kept (Core Data's ATRANSACTION
        and ACHANGE tables, written here or on an Apple device), one JSON object per
        transaction, oldest first:
          {"type": "transaction", "token": "<STORE-UUID>:<N>", "timestamp": {"$date": ...},
           "author": ..., "contextName": ..., "bundleID": ..., "processID": ...,
           "changeCount": N}
        With --changes, each transaction is followed by its changes:
          {"type": "change", "token": ..., "changeID": N, "changeType": "insert|update|delete",
           "object": "<URI>", "entity": "...", "updatedProperties": [...], "tombstone": {...}}
        The store is opened read-only: nothing in its folder changes. Progress shows on
        standard error (a bar on a terminal, lines after a second elsewhere).

        STORE may be a postgresql:// URL (give --model: a PostgreSQL store keeps no model);
        its password is never printed.

        USAGE: objectgraph history [--model MODEL] STORE [--after TOKEN] [--changes] [--quiet]

        OPTIONS:
          --model MODEL   The .xcdatamodeld, .xcdatamodel or contents file. Without
                          it, the model the store keeps inside it (Z_MODELCACHE).
          --after TOKEN   Only transactions after this one: a token printed before
                          (<STORE-UUID>:<N>) or a transaction number.
          --changes       Print each transaction's changes too.
          -q, --quiet     Show no progress.
          -h, --help      Show help.

        EXIT: 0 printed (nothing when the store kept no history), 2 usage error, an expired
        token, or a store that cannot be read.

        """

    static func run(_ arguments: [String], io: CommandIO) -> Int32 {
        var model: String?
        var after: String?
        var changes = false
        var quiet = false
        var store: String?
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            switch argument {
            case "--model", "--after":
                guard index + 1 < arguments.count else {
                    return usageError("\(argument) needs a value", io: io)
                }
                if argument == "--model" {
                    model = arguments[index + 1]
                } else {
                    after = arguments[index + 1]
                }
                index += 2
            case "--changes":
                changes = true
                index += 1
            case "--quiet", "-q":
                quiet = true
                index += 1
            default:
                if argument.hasPrefix("-") {
                    return usageError("unknown option \(argument)", io: io)
                }
                if store != nil { return usageError("only one store can be read", io: io) }
                store = argument
                index += 1
            }
        }
        guard let store else { return usageError("a STORE path is required", io: io) }
        do {
            let (_, context) = try StoreOpening.open(model: model, store: store)
            var request = HistoryRequest()
            if let after {
                guard let description = context.coordinator.storeDescriptions.first else {
                    return usageError("the store did not open", io: io)
                }
                guard let token = token(after, store: description.identifier) else {
                    return usageError(
                        "--after takes a token (<STORE-UUID>:<N>) or a transaction number,"
                            + " not '\(after)'", io: io)
                }
                request = .fetchHistory(after: token)
            }
            let display = ProgressDisplay(
                command: Self.name, io: io, mode: ProgressDisplay.mode(quiet: quiet, io: io))
            defer { display.finish() }
            let transactions = try display.showWhile(
                ProgressDisplay.Report(
                    fraction: nil, counts: nil, unit: "", detail: "reading the history")
            ) { try context.execute(request).transactions }
            for (index, transaction) in transactions.enumerated() {
                io.write(try StoreJSON.line(json(transaction)) + "\n")
                for change in transaction.changes where changes {
                    io.write(try StoreJSON.line(json(change)) + "\n")
                }
                let done = index + 1
                if done % 64 == 0 || done == transactions.count {
                    display.show(
                        ProgressDisplay.Report(
                            fraction: Double(done) / Double(transactions.count),
                            counts: (done, transactions.count), unit: "transactions",
                            detail: "writing"))
                }
            }
            return ExitStatus.success
        } catch {
            io.writeError("error: \(error)\n")
            return ExitStatus.usage
        }
    }

    /// The token `text` names: `STORE:N`, or a number of the store `store`.
    static func token(_ text: String, store: String) -> HistoryToken? {
        if let number = Int64(text), number >= 0 {
            return HistoryToken(storeIdentifier: store, transactionNumber: number)
        }
        return HistoryToken(text)
    }

    static func json(_ transaction: HistoryTransaction) -> [String: Any] {
        var object: [String: Any] = [
            "type": "transaction", "token": transaction.token.description,
            "timestamp": StoreJSON.json(.date(transaction.timestamp)),
            "changeCount": transaction.changes.count,
        ]
        object["author"] = transaction.author ?? NSNull()
        object["contextName"] = transaction.contextName ?? NSNull()
        object["bundleID"] = transaction.bundleID ?? NSNull()
        object["processID"] = transaction.processID ?? NSNull()
        return object
    }

    static func json(_ change: HistoryChange) -> [String: Any] {
        var object: [String: Any] = [
            "type": "change", "token": change.transactionToken.description,
            "changeID": change.changeID, "changeType": change.changeType.description,
            "object": change.changedObjectID.uriRepresentation.absoluteString,
            "entity": change.changedObjectID.entityName,
        ]
        if let properties = change.updatedProperties {
            object["updatedProperties"] = properties.sorted()
        }
        if let tombstone = change.tombstone {
            object["tombstone"] = tombstone.mapValues(StoreJSON.json)
        }
        return object
    }
}
