import Foundation

@testable import ObjectGraph

/// A SQLite store of the history model in a temporary folder, opened with history tracking
/// on (unless asked otherwise), and a context whose saves carry an author and a name.
///
/// Model: `Folder` (`name`, kept after deletion; `color`) ↔ `notes` (cascade) ↔ `Note.folder`;
/// `Note` (`title` and `rank` kept after deletion, `body` not).
final class HistoryFixture {
    let folder: URL
    let url: URL
    var coordinator: StoreCoordinator
    var context: ManagedContext
    var store: StoreDescription

    init(tracksHistory: Bool = true) throws {
        folder = try TestSupport.makeTemporaryFolder()
        url = folder.appendingPathComponent("history.sqlite")
        (coordinator, store) = try Self.open(url, tracksHistory: tracksHistory)
        context = Self.context(coordinator)
    }

    deinit { TestSupport.removeTemporaryFolder(folder) }

    /// Opens the store again on a new coordinator (the old one is dropped), as after a
    /// restart.
    func reopen(tracksHistory: Bool = true) throws {
        coordinator.removeStore(store)
        (coordinator, store) = try Self.open(url, tracksHistory: tracksHistory)
        context = Self.context(coordinator)
    }

    static func open(_ url: URL, tracksHistory: Bool) throws
        -> (StoreCoordinator, StoreDescription)
    {
        let coordinator = StoreCoordinator(model: model())
        var options = StoreOptions()
        options.tracksHistory = tracksHistory
        let store = try coordinator.addStore(type: .sqlite, at: url, options: options)
        return (coordinator, store)
    }

    static func context(_ coordinator: StoreCoordinator) -> ManagedContext {
        let context = ManagedContext(coordinator: coordinator)
        context.transactionAuthor = "tester"
        context.name = "main"
        return context
    }

    /// Inserts a folder and notes, saves, and returns them.
    @discardableResult
    func seed(folder name: String = "work", notes: [String] = ["a", "b"]) throws
        -> (ManagedObject, [ManagedObject])
    {
        let folder = try context.insert("Folder")
        try folder.set(name, for: "name")
        var made: [ManagedObject] = []
        for (rank, title) in notes.enumerated() {
            let note = try context.insert("Note")
            try note.set(title, for: "title")
            try note.set("body of \(title)", for: "body")
            try note.set(rank + 1, for: "rank")
            try note.setObject(folder, for: "folder")
            made.append(note)
        }
        try context.save()
        return (folder, made)
    }

    /// Every transaction with its changes.
    func all() throws -> [HistoryTransaction] {
        try coordinator.fetchHistory(HistoryRequest()).transactions
    }

    static func model() -> EntityModel {
        var folder = Entity("Folder")
        var name = Attribute("name", type: .string)
        name.preservesValueInHistoryOnDeletion = true
        folder.attributes = [name, Attribute("color", type: .string)]
        folder.relationships = [
            Relationship(
                "notes", destination: "Note", toMany: true, inverse: "folder",
                deleteRule: .cascade)
        ]
        var note = Entity("Note")
        var title = Attribute("title", type: .string)
        title.preservesValueInHistoryOnDeletion = true
        var rank = Attribute("rank", type: .integer32)
        rank.preservesValueInHistoryOnDeletion = true
        note.attributes = [title, Attribute("body", type: .string), rank]
        note.relationships = [Relationship("folder", destination: "Folder", inverse: "notes")]
        return EntityModel(entities: [folder, note])
    }
}
