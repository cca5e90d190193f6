import Foundation
import ObjectGraph

/// `objectgraph convert --model MODEL SOURCE DEST [--to TYPE]`: copies a store into a new file of
/// another type, or into or out of a PostgreSQL schema (Core Data's `migratePersistentStore`),
/// keeping every object's entity and primary key, its values and relationships.
struct ConvertCommand: Command {
    static let name = "convert"
    static let abstract =
        "Copy a store into a new file of another type (SQLite, XML, binary) or PostgreSQL"
    static let help = """
        OVERVIEW: Copy a store into a new file of another store type, or between a file and
        a PostgreSQL database (a phone's SQLite file into the server, and back).

        Every object keeps its entity and primary key, its attribute values and its
        relationships (in order for ordered ones). The source is opened read-only and never
        changed; the destination must not exist.

        The destination appears only when complete: it is written under a hidden name beside
        it (.<dest>.tmp-<pid>-XXXXXX) and moved into place at the end. An interrupted run
        leaves no destination, so it can simply run again; the next run removes the hidden
        file the interrupted one left. A PostgreSQL destination is written into a staging
        schema and moved into its schema in one transaction; its schema must hold no store.

        Progress goes to standard error: a bar with the objects read and written and the time
        left when it is a terminal, otherwise a line per further 10% once the copy has run for
        a second.

        USAGE: objectgraph convert --model <model> [--from <type>] [--to <type>] [--quiet]
                                   <source> <dest>

        ARGUMENTS:
          <source>            The store to read. Its type is recognized from its first bytes
                              (SQLite header, <?xml, the binary store's magic number) or its
                              extension; a postgresql:// URL is a PostgreSQL store.
          <dest>              The file to write (it must not exist; it is never replaced), or
                              a postgresql:// URL whose schema (?schema=, default objectgraph)
                              holds no store yet.

        OPTIONS:
          --model <model>     The store's model: a .xcdatamodeld bundle, a .xcdatamodel folder
                              or a contents file.
          --to <type>         The destination type: sqlite, xml, binary or postgres.
                              Default: from the destination's extension (.sqlite, .xml,
                              .objectgraph or .bin), postgres for a postgresql:// URL.
          --from <type>       The source type, when it cannot be recognized.
          --quiet             Show no progress.
          -h, --help          Show this help.

        EXIT STATUS:
          0  The store was converted.
          2  Usage error, or a file cannot be read or written (the reason is on stderr).

        A PostgreSQL URL's password is never printed: give it in the URL, in PGPASSWORD or
        in a password file (~/.pgpass, PGPASSFILE or ?passfile=).

        EXAMPLES:
          objectgraph convert --model School.xcdatamodeld School.sqlite School.objectgraph
          objectgraph convert --model School.xcdatamodeld --to postgres School.sqlite \
              'postgresql://app@db.local/school?schema=school'
          objectgraph convert --model School.xcdatamodeld \
              'postgresql://app@db.local/school?schema=school' Back.sqlite

        """

    static func run(_ arguments: [String], io: CommandIO) -> Int32 {
        var modelPath: String?
        var toName: String?
        var fromName: String?
        var paths: [String] = []
        var index = 0
        var onlyPaths = false
        var quiet = false
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if onlyPaths || !argument.hasPrefix("-") || argument == "-" {
                paths.append(argument)
                continue
            }
            if argument == "--" {
                onlyPaths = true
                continue
            }
            if argument == "--quiet" || argument == "-q" {
                quiet = true
                continue
            }
            guard ["--model", "--to", "--from"].contains(argument) else {
                return usageError("unknown option '\(argument)'", io: io)
            }
            guard index < arguments.count else {
                return usageError("\(argument) needs a value", io: io)
            }
            let value = arguments[index]
            index += 1
            switch argument {
            case "--model": modelPath = value
            case "--to": toName = value
            default: fromName = value
            }
        }
        guard let modelPath else { return usageError("missing --model <model>", io: io) }
        guard paths.count == 2 else {
            return usageError(
                "expected a source and a destination, got \(paths.count) paths", io: io)
        }
        let source = paths[0]
        let destination = paths[1]
        let sourceType: StoreType
        if let fromName {
            guard let named = StoreFileKind.type(named: fromName), named != .inMemory else {
                return usageError(
                    "unknown store type '\(fromName)' (sqlite, xml, binary, postgres)", io: io)
            }
            sourceType = named
        } else {
            let detected: StoreType?
            do {
                detected = try StoreFileKind.checkedSource(source)
            } catch {
                io.writeError("error: \(error)\n")
                return ExitStatus.usage
            }
            guard let found = detected else {
                return usageError(
                    "cannot tell the type of \(StoreFileKind.displayName(source)); pass --from"
                        + " sqlite|xml|binary|postgres", io: io)
            }
            sourceType = found
        }
        let destinationType: StoreType
        if let toName {
            guard let named = StoreFileKind.type(named: toName), named != .inMemory else {
                return usageError(
                    "unknown store type '\(toName)' (sqlite, xml, binary, postgres)", io: io)
            }
            destinationType = named
        } else if StoreFileKind.isPostgresURL(destination) {
            destinationType = .postgres
        } else {
            guard
                let found = StoreType(
                    fileExtension: URL(fileURLWithPath: destination).pathExtension)
            else {
                return usageError(
                    "cannot tell the destination type from '\(destination)'; pass --to "
                        + "sqlite|xml|binary|postgres", io: io)
            }
            destinationType = found
        }
        if !StoreFileKind.isPostgresURL(destination),
            FileManager.default.fileExists(atPath: destination)
        {
            io.writeError("error: \(destination): the destination already exists\n")
            return ExitStatus.usage
        }
        do {
            let model = try EntityModel(contentsOf: URL(fileURLWithPath: modelPath))
            let coordinator = StoreCoordinator(model: model)
            let store = try coordinator.addStore(
                type: sourceType, at: StoreFileKind.url(for: source),
                options: StoreOptions(isReadOnly: true, createIfMissing: false))
            let display = ProgressDisplay(
                command: name, io: io, mode: ProgressDisplay.mode(quiet: quiet, io: io))
            defer { display.finish() }
            var progress: (@Sendable (StoreCopyProgress) -> Void)?
            if display.mode != .quiet {
                progress = { report in display.show(ProgressDisplay.Report(report)) }
            }
            try coordinator.migrateStore(
                store, to: StoreFileKind.url(for: destination), type: destinationType,
                progress: progress)
            display.finish()
            let count = try objectCount(coordinator)
            io.write(
                "\(StoreFileKind.displayName(source)) (\(sourceType)) → "
                    + "\(StoreFileKind.displayName(destination)) (\(destinationType)): "
                    + "\(count) object\(count == 1 ? "" : "s")\n")
            return ExitStatus.success
        } catch {
            io.writeError("error: \(error)\n")
            return ExitStatus.usage
        }
    }

    /// The number of objects in the coordinator's store.
    static func objectCount(_ coordinator: StoreCoordinator) throws -> Int {
        let context = ManagedContext(coordinator: coordinator)
        var total = 0
        for entity in coordinator.model.entities where !entity.isAbstract {
            var request = FetchRequest(entityName: entity.name)
            request.includesSubentities = false
            total += try context.count(for: request)
        }
        return total
    }
}
