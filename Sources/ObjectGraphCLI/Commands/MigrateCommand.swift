import Foundation
import ObjectGraph

/// `objectgraph migrate --model BUNDLE [--to VERSION] [--mapping PATH]... [--dry-run] STORE`:
/// migrates a store written with an earlier version of a model bundle to the current version
/// (or `--to`), in place.
struct MigrateCommand: Command {
    static let name = "migrate"
    static let abstract = "Migrate a store to another version of its model bundle, in place"
    static let help = """
        OVERVIEW: Migrate a store written with an earlier version of a model bundle to the
        bundle's current version (or --to), in place, as Core Data's automatic migration
        does: the store's version is found by its entity version hashes, then each step is
        a declared mapping model (--mapping, or an .xcmappingmodel in or beside the bundle)
        or an inferred (lightweight) mapping.

        A process killed during the migration leaves the store at its old version or fully
        migrated: a SQLite store migrates in one transaction, an XML or binary store is
        written whole beside the old file and moved over it, a PostgreSQL store is written
        into a staging schema and swapped for the old tables in one transaction.

        USAGE: objectgraph migrate --model <bundle> [--to <version>] [--mapping <path>]...
                                   [--dry-run] [--quiet] <store>

        ARGUMENTS:
          <store>             The store (SQLite, XML or binary; recognized from its first
                              bytes or extension), or a postgresql:// URL.

        OPTIONS:
          --model <bundle>    The model bundle (.xcdatamodeld) with every version.
          --to <version>      The version to migrate to (default: the current version).
          --mapping <path>    A mapping model (.xcmappingmodel) to use; may be repeated.
          --dry-run           Print the plan, one line per change per step, and change
                              nothing.
          --quiet             Show no progress.
          -h, --help          Show this help.

        Progress goes to standard error: a bar with the steps done and the time left when it
        is a terminal, otherwise a line per further 10% once the migration has run for a
        second.

        EXIT STATUS:
          0  The store was migrated (or already at the version), or the plan was printed.
          1  The store cannot be migrated (the reason is on stderr): no version matches it,
             no mapping leads to the version, or the data breaks the new model.
          2  Usage error, or a file cannot be read.

        EXAMPLE:
          objectgraph migrate --model Moods.xcdatamodeld --dry-run Moods.sqlite

        """

    /// The parsed arguments.
    struct Arguments {
        var model: String?
        var version: String?
        var mappings: [String] = []
        var dryRun = false
        var quiet = false
        var stores: [String] = []
    }

    static func run(_ arguments: [String], io: CommandIO) -> Int32 {
        let parsed: Arguments
        switch parse(arguments) {
        case .success(let arguments): parsed = arguments
        case .failure(let error): return usageError(error.message, io: io)
        }
        guard let modelPath = parsed.model else {
            return usageError("missing --model <bundle>", io: io)
        }
        guard parsed.stores.count == 1, let store = parsed.stores.first else {
            return usageError("expected one store, got \(parsed.stores.count)", io: io)
        }
        let type: StoreType
        let url: URL
        do {
            guard let found = try StoreFileKind.checkedSource(store) else {
                return usageError("cannot tell the type of \(store) (sqlite, xml, binary)", io: io)
            }
            type = found
            url = try StoreFileKind.url(for: store)
        } catch {
            io.writeError("error: \(error)\n")
            return ExitStatus.usage
        }
        let coordinator: StoreCoordinator
        do {
            let bundle = try ModelBundle(contentsOf: URL(fileURLWithPath: modelPath))
            let found = try StoreCoordinator(bundle: bundle, version: parsed.version)
            let named = try MigrationCommandMappings.read(
                parsed.mappings, versions: found.modelVersions)
            coordinator =
                named.isEmpty
                ? found
                : StoreCoordinator(
                    model: found.model, versions: found.modelVersions,
                    mappingModels: named + found.mappingModels)
        } catch {
            io.writeError("error: \(error)\n")
            return ExitStatus.usage
        }
        let display = ProgressDisplay(
            command: name, io: io, mode: ProgressDisplay.mode(quiet: parsed.quiet, io: io))
        return migrate(
            url, type: type, name: StoreFileKind.displayName(store), coordinator: coordinator,
            dryRun: parsed.dryRun, display: display, io: io)
    }

    /// Plans (and unless `dryRun`, runs) the migration, showing its progress on `display`;
    /// `name` is what the output calls the store (never a password).
    static func migrate(
        _ url: URL, type: StoreType, name: String, coordinator: StoreCoordinator, dryRun: Bool,
        display: ProgressDisplay, io: CommandIO
    ) -> Int32 {
        let target =
            coordinator.modelVersions.last { $0.model == coordinator.model }?.name ?? "the model"
        do {
            let steps = try coordinator.migrationPlan(forStoreAt: url, type: type)
            if steps.isEmpty {
                io.write("\(name): already at \(target)\n")
                return ExitStatus.success
            }
            if dryRun {
                for step in steps {
                    io.write("\(step.label)\n")
                    for line in step.mapping.changeDescriptions {
                        io.write("  \(line)\n")
                    }
                }
                return ExitStatus.success
            }
            var options = StoreOptions()
            if display.mode != .quiet {
                options.migration.progress = { display.show(ProgressDisplay.Report($0)) }
            }
            defer { display.finish() }
            let description = try coordinator.addStore(type: type, at: url, options: options)
            display.finish()
            coordinator.removeStore(description)
            io.write(
                "\(name): migrated to \(target) in \(steps.count) step"
                    + "\(steps.count == 1 ? "" : "s")\n")
            return ExitStatus.success
        } catch let error as MigrationError {
            io.writeError("error: \(name): \(error)\n")
            return ExitStatus.finding
        } catch StoreError.incompatibleModel(let path, let compatibility) {
            io.writeError("error: \(path): \(compatibility)\n")
            return ExitStatus.finding
        } catch {
            io.writeError("error: \(error)\n")
            return ExitStatus.usage
        }
    }

    /// A usage error's message.
    struct UsageFailure: Error {
        let message: String
    }

    static func parse(_ arguments: [String]) -> Result<Arguments, UsageFailure> {
        var parsed = Arguments()
        var index = 0
        var onlyPaths = false
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if onlyPaths || !argument.hasPrefix("-") || argument == "-" {
                parsed.stores.append(argument)
                continue
            }
            switch argument {
            case "--": onlyPaths = true
            case "--dry-run": parsed.dryRun = true
            case "--quiet", "-q": parsed.quiet = true
            case "--model", "--to", "--mapping":
                guard index < arguments.count else {
                    return .failure(UsageFailure(message: "\(argument) needs a value"))
                }
                let value = arguments[index]
                index += 1
                switch argument {
                case "--model": parsed.model = value
                case "--to": parsed.version = value
                default: parsed.mappings.append(value)
                }
            default:
                return .failure(UsageFailure(message: "unknown option '\(argument)'"))
            }
        }
        return .success(parsed)
    }
}
