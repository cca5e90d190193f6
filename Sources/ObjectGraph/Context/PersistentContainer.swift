import Foundation

/// The common setup in one call, like Core Data's `NSPersistentContainer`: load the model named
/// `name`, open its store in the default location, and hand out contexts.
///
/// ```swift
/// let container = try PersistentContainer(name: "School")   // Models/School.xcdatamodeld
/// let context = container.viewContext
/// ```
///
/// The model is looked up as `<name>.xcdatamodeld` (or `.xcdatamodel`) in `./Models` and `.`
/// unless given. The store is `<directory>/<name>.<ext>`, with the directory defaulting to
/// `$XDG_DATA_HOME/<name>` (`~/.local/share/<name>`).
public final class PersistentContainer {
    /// The container's name.
    public let name: String
    /// The model.
    public let model: EntityModel
    /// The coordinator with the container's store.
    public let coordinator: StoreCoordinator
    /// The store's description.
    public let store: StoreDescription
    /// The context for the calling thread's work (create more with ``newContext()``).
    public let viewContext: ManagedContext

    /// Loads the model and opens the store.
    /// - Parameters:
    ///   - name: the model's name, and the store file's.
    ///   - model: the model, when already loaded.
    ///   - modelURL: where the model is, when not in the default places.
    ///   - storeType: the store type (SQLite by default).
    ///   - directory: where the store file goes.
    public init(
        name: String, model: EntityModel? = nil, modelURL: URL? = nil,
        storeType: StoreType = .sqlite, directory: URL? = nil
    ) throws {
        self.name = name
        let loaded = try model ?? EntityModel(contentsOf: modelURL ?? Self.findModel(named: name))
        self.model = loaded
        coordinator = StoreCoordinator(model: loaded)
        var url: URL?
        if storeType != .inMemory {
            let folder = directory ?? Self.defaultDirectory(for: name)
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            url = folder.appendingPathComponent("\(name).\(Self.fileExtension(for: storeType))")
        }
        store = try coordinator.addStore(type: storeType, at: url)
        viewContext = ManagedContext(coordinator: coordinator)
        viewContext.name = "viewContext"
    }

    /// A new context on the same coordinator (for another thread or a scratch edit).
    public func newContext() -> ManagedContext {
        ManagedContext(coordinator: coordinator)
    }

    /// `$XDG_DATA_HOME/<name>`, or `~/.local/share/<name>`.
    public static func defaultDirectory(for name: String) -> URL {
        let environment = ProcessInfo.processInfo.environment
        if let data = environment["XDG_DATA_HOME"], data.hasPrefix("/") {
            return URL(fileURLWithPath: data).appendingPathComponent(name)
        }
        return FileManager.default.homeDirectoryForCurrentUser
            .appendingPathComponent(".local/share").appendingPathComponent(name)
    }

    static func fileExtension(for type: StoreType) -> String {
        switch type {
        case .xml: return "xml"
        case .binary: return "objectgraph"
        default: return "sqlite"
        }
    }

    static func findModel(named name: String) throws -> URL {
        let here = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
        for folder in [here.appendingPathComponent("Models"), here] {
            for suffix in ["xcdatamodeld", "xcdatamodel"] {
                let candidate = folder.appendingPathComponent("\(name).\(suffix)")
                if FileManager.default.fileExists(atPath: candidate.path) { return candidate }
            }
        }
        throw ModelError(
            .unreadable, "no model named \(name) in ./Models or . (pass modelURL:)",
            file: "\(name).xcdatamodeld")
    }
}
