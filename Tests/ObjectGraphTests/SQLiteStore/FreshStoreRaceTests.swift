import Foundation
import Testing

@testable import ObjectGraph

/// Coordinators (as in several processes) opening one SQLite file that does not exist yet, at
/// once: one creates the schema, the others open what it created.
@Suite("Opening a new SQLite file together")
struct FreshStoreRaceTests {
    /// What the openers found, collected under a lock.
    final class Results: @unchecked Sendable {
        private let lock = NSLock()
        private var results: [Result<String, any Error>] = []

        func append(_ result: Result<String, any Error>) {
            lock.withLock { results.append(result) }
        }

        func all() -> [Result<String, any Error>] { lock.withLock { results } }
    }

    /// Coordinators opening the file at once.
    static let openers = 6

    @Test("coordinators opening a missing file together all open it, with one store UUID")
    func openTogether() throws {
        let folder = try TestSupport.makeTemporaryFolder()
        defer { TestSupport.removeTemporaryFolder(folder) }
        for round in 0..<10 {
            let url = folder.appendingPathComponent("New\(round).sqlite")
            let results = Results()
            DispatchQueue.concurrentPerform(iterations: Self.openers) { _ in
                results.append(
                    Result { () throws -> String in
                        let coordinator = StoreCoordinator(model: TestModels.league())
                        try coordinator.addStore(type: .sqlite, at: url)
                        return coordinator.storeDescriptions.first?.identifier ?? ""
                    })
            }
            let identifiers = try results.all().map { try $0.get() }
            #expect(Set(identifiers).count == 1)
        }
    }
}
