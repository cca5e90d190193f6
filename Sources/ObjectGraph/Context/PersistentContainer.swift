import Foundation

/// The common setup in one call, like Core Data's `NSPersistentContainer`: load the model named
/// `name`, open its store in the default location, and hand out contexts.
///
/// ```swift
/// let container = try PersistentContainer(name: "School")   // Models/School.xcdatamodeld
/// let view = await container.viewContext                     // main queue, for the interface
/// try await container.performBackgroundTask { context in     // a private queue, for imports
///     try context.insert("Course").set("Algebra", for: "title")
///     try context.save()
/// }
/// ```
///
/// The model is looked up as `<name>.xcdatamodeld` (or `.xcdatamodel`) in `./Models` and `.`
/// unless given. The store is `<directory>/<name>.<ext>`, with the directory defaulting to
/// `$XDG_DATA_HOME/<name>` (`~/.local/share/<name>`).
///
/// `Sendable`: its properties are constants, and the view context is kept in a box isolated to
/// the main actor.
public final class PersistentContainer: Sendable {
    /// The container's name.
    public let name: String
    /// The model.
    public let model: EntityModel
    /// The coordinator with the container's store.
    public let coordinator: StoreCoordinator
    /// The store's description.
    public let store: StoreDescription
    /// Holds the view context once made; the main actor's isolation protects it.
    private let viewContextBox = ViewContextBox()

    /// The main-queue context for the interface (Core Data's `viewContext`), made on first use,
    /// on the main actor. Its name is `"viewContext"`; it does not merge other contexts' saves
    /// unless ``ManagedContext/automaticallyMergesChangesFromParent`` is set.
    ///
    /// ```swift
    /// @MainActor func showCourses() throws {
    ///     let courses = try container.viewContext.fetch(FetchRequest(entityName: "Course"))
    /// }
    /// ```
    @MainActor public var viewContext: ManagedContext {
        if let made = viewContextBox.context { return made }
        let made = ManagedContext(coordinator: coordinator, concurrencyType: .mainQueue)
        made.name = "viewContext"
        viewContextBox.context = made
        return made
    }

    /// Loads the model and opens the store, migrating it first when it was written with an
    /// earlier version of a model bundle (`.xcdatamodeld`): the coordinator then knows every
    /// version and the mapping models in and beside the bundle (see ``MigrationOptions``).
    ///
    /// ```swift
    /// var migration = MigrationOptions()
    /// migration.progress = { print("migrating: \(Int($0.fractionCompleted * 100))%") }
    /// let container = try PersistentContainer(name: "Moods", migration: migration)
    /// ```
    ///
    /// - Parameters:
    ///   - name: the model's name, and the store file's.
    ///   - model: the model, when already loaded (no versions are known then).
    ///   - modelURL: where the model is, when not in the default places.
    ///   - storeType: the store type (SQLite by default).
    ///   - directory: where the store file goes.
    ///   - migration: how a store of an earlier version is migrated (automatically, inferring
    ///     mappings, by default).
    public init(
        name: String, model: EntityModel? = nil, modelURL: URL? = nil,
        storeType: StoreType = .sqlite, directory: URL? = nil,
        migration: MigrationOptions = MigrationOptions()
    ) throws {
        self.name = name
        if let model {
            coordinator = StoreCoordinator(model: model)
        } else {
            let url = try modelURL ?? Self.findModel(named: name)
            if url.pathExtension == "xcdatamodeld" {
                coordinator = try StoreCoordinator(bundle: ModelBundle(contentsOf: url))
            } else {
                coordinator = StoreCoordinator(model: try EntityModel(contentsOf: url))
            }
        }
        self.model = coordinator.model
        var url: URL?
        if storeType != .inMemory {
            let folder = directory ?? Self.defaultDirectory(for: name)
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            url = folder.appendingPathComponent("\(name).\(Self.fileExtension(for: storeType))")
        }
        store = try coordinator.addStore(
            type: storeType, at: url, options: StoreOptions(migration: migration))
    }

    /// A new confined context on the same coordinator, for the isolation domain that asks (a
    /// thread, a task, an actor) or a scratch edit.
    public func newContext() -> ManagedContext {
        ManagedContext(coordinator: coordinator)
    }

    /// A new private-queue context on the same coordinator (Core Data's
    /// `newBackgroundContext()`).
    ///
    /// ```swift
    /// let background = container.newBackgroundContext()
    /// try await background.perform { context in try context.save() }
    /// ```
    public func newBackgroundContext() -> BackgroundContext {
        BackgroundContext(coordinator: coordinator)
    }

    /// Runs `body` on a new private-queue context and returns its value, rethrowing its error
    /// (Core Data's `performBackgroundTask`, as an `async` call).
    ///
    /// ```swift
    /// let count = try await container.performBackgroundTask { context in
    ///     try context.count(for: FetchRequest(entityName: "Course"))
    /// }
    /// ```
    public func performBackgroundTask<T: Sendable, E: Error>(
        _ body: @escaping @Sendable (ManagedContext) throws(E) -> T
    ) async throws(E) -> T {
        try await newBackgroundContext().perform(body)
    }

    /// Runs `body` on a new private-queue context later and returns at once (Core Data's
    /// `performBackgroundTask`).
    ///
    /// ```swift
    /// container.performBackgroundTask { context in
    ///     try? context.insert("Course").set("Algebra", for: "title")
    ///     try? context.save()
    /// }
    /// ```
    public func performBackgroundTask(_ body: @escaping @Sendable (ManagedContext) -> Void) {
        newBackgroundContext().perform(body)
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

/// The view context of a ``PersistentContainer``, once made. Isolated to the main actor: only
/// the main actor reads or sets it, so the container stays `Sendable` without a lock.
@MainActor private final class ViewContextBox {
    var context: ManagedContext?

    nonisolated init() {}
}
