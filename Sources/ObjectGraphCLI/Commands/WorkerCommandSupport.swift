import Foundation
import ObjectGraph

/// What the hidden multi-process helpers (`_increment`, `_shared-edits`) share: their
/// `--option value` arguments and the gate file that starts the processes together.
enum WorkerCommandSupport {
    /// The `--option value` pairs of `arguments`, each option one of `allowed`; on an unknown
    /// option or a missing value, the argument at fault instead.
    ///
    /// ```swift
    /// WorkerCommandSupport.options(["--times", "3"], allowed: ["--times"])  // .success(["--times": "3"])
    /// ```
    static func options(_ arguments: [String], allowed: Set<String>) -> Result<
        [String: String], Failure
    > {
        var options: [String: String] = [:]
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            guard allowed.contains(argument), index < arguments.count else {
                return .failure(Failure(argument: argument))
            }
            options[argument] = arguments[index]
            index += 1
        }
        return .success(options)
    }

    /// An unknown option, or one without its value.
    struct Failure: Error {
        /// The argument at fault.
        let argument: String
    }

    /// A coordinator with the model at `modelPath` and the existing store `store` (a
    /// `postgresql://` URL, else a SQLite file), with history tracking when `history` is on.
    static func coordinator(model modelPath: String, store: String, history: Bool) throws
        -> StoreCoordinator
    {
        let coordinator = StoreCoordinator(
            model: try EntityModel(contentsOf: URL(fileURLWithPath: modelPath)))
        var options = StoreOptions(createIfMissing: false)
        options.tracksHistory = history
        if store.hasPrefix("postgresql:") || store.hasPrefix("postgres:"),
            let url = URL(string: store)
        {
            try coordinator.addStore(type: .postgres, at: url, options: options)
        } else {
            try coordinator.addStore(
                type: .sqlite, at: URL(fileURLWithPath: store), options: options)
        }
        return coordinator
    }

    /// Waits until a file exists at `path` (polling every 2 ms); `false` after `seconds`.
    static func waitFor(_ path: String, seconds: Double) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while !FileManager.default.fileExists(atPath: path) {
            guard Date() < deadline else { return false }
            Thread.sleep(forTimeInterval: 0.002)
        }
        return true
    }
}

extension Command {
    /// The `--option value` pairs of `arguments` (see ``WorkerCommandSupport/options(_:allowed:)``),
    /// or `nil` after writing the usage error naming the argument at fault.
    static func workerOptions(_ arguments: [String], allowed: Set<String>, io: CommandIO)
        -> [String: String]?
    {
        switch WorkerCommandSupport.options(arguments, allowed: allowed) {
        case .success(let options): return options
        case .failure(let failure):
            _ = usageError("unknown option or missing value '\(failure.argument)'", io: io)
            return nil
        }
    }
}
