import Foundation

@testable import ObjectGraph

/// A SQLite store of the league model in a temporary folder, for the concurrency tests.
struct ConcurrencyFixture: Sendable {
    let folder: URL
    let coordinator: StoreCoordinator

    init() throws {
        folder = try TestSupport.makeTemporaryFolder()
        coordinator = StoreCoordinator(model: TestModels.league())
        try coordinator.addStore(type: .sqlite, at: folder.appendingPathComponent("league.sqlite"))
    }

    /// A container on a fresh store of the league model.
    static func container(in folder: URL) throws -> PersistentContainer {
        try PersistentContainer(
            name: "League", model: TestModels.league(), storeType: .sqlite, directory: folder)
    }

    func remove() { TestSupport.removeTemporaryFolder(folder) }

    /// How many clubs `context` counts (the store's rows and its own pending changes).
    static func clubs(in context: ManagedContext) throws -> Int {
        try context.count(for: FetchRequest(entityName: "Club"))
    }

    /// Inserts clubs titled `prefix0`, `prefix1`, … into `context`.
    static func insertClubs(_ count: Int, prefix: String, into context: ManagedContext) throws {
        for index in 0..<count {
            try context.insert("Club").set("\(prefix)\(index)", for: "title")
        }
    }
}

/// A value only ever touched inside one context's queue: the tests use it to show that the
/// queue's work items exclude each other (a lost update would show in its final value).
final class QueueGuarded<Value>: @unchecked Sendable {
    // `@unchecked`: touched only inside one context's queue (what the tests check).
    var value: Value

    init(_ value: Value) { self.value = value }
}

/// The identity of the current thread (`pthread_self`), for telling threads apart.
func currentThreadID() -> UInt {
    #if canImport(Darwin)
        return UInt(bitPattern: pthread_self())
    #else
        return UInt(pthread_self())
    #endif
}

/// An error a test block throws on purpose.
struct Refused: Error, Equatable {
    let reason: String
}
