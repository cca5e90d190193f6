import Foundation
import ObjectGraph

/// `objectgraph model-from-store STORE --output PATH`: writes the model a Core Data SQLite
/// store keeps inside it (`Z_MODELCACHE`) as an Xcode model.
struct ModelFromStoreCommand: Command {
    static let name = "model-from-store"
    static let abstract = "Write the model a Core Data store keeps inside it as an Xcode model."
    static let help = """
        OVERVIEW: Write the model a Core Data SQLite store keeps inside it (Z_MODELCACHE, a
        compressed archive of the compiled model) as an Xcode model, with the entity version
        hashes the store was written with. The store is opened read-only: nothing in its
        folder changes. Fetch request templates, fetched properties and validation
        predicates are not recovered.

        USAGE: objectgraph model-from-store STORE --output PATH

        OPTIONS:
          --output PATH   Name.xcdatamodel (a folder with its contents file),
                          Name.xcdatamodeld (a bundle with that one version) or a file
                          for the XML alone.
          -h, --help      Show help.

        EXIT: 0 written, 2 usage error, the store keeps no model, or it cannot be read or written.

        """

    static func run(_ arguments: [String], io: CommandIO) -> Int32 {
        var output: String?
        var store: String?
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            if argument == "--output" {
                guard index + 1 < arguments.count else {
                    return usageError("--output needs a value", io: io)
                }
                output = arguments[index + 1]
                index += 2
                continue
            }
            if argument.hasPrefix("-") { return usageError("unknown option \(argument)", io: io) }
            if store != nil { return usageError("only one store can be read", io: io) }
            store = argument
            index += 1
        }
        guard let store else { return usageError("a STORE path is required", io: io) }
        guard let output else { return usageError("--output is required", io: io) }
        do {
            let model = try StoreOpening.model(at: nil, forStore: store)
            try model.write(to: URL(fileURLWithPath: output))
            io.write("\(output): \(model.entities.count) entities from \(store)\n")
            return ExitStatus.success
        } catch {
            io.writeError("error: \(error)\n")
            return ExitStatus.usage
        }
    }
}
