import Foundation
import Testing

@testable import ObjectGraph

@Suite("Atomic stores clean up after killed saves")
struct StaleTemporaryFileTests {
    @Test(
        "an old temporary file of a killed save is removed when the store opens; a fresh one stays")
    func staleFiles() throws {
        let folder = try TestSupport.makeTemporaryFolder()
        defer { TestSupport.removeTemporaryFolder(folder) }
        let url = folder.appendingPathComponent("League.objectgraph")
        let stale = folder.appendingPathComponent(".League.objectgraph.tmp-AbC123")
        let fresh = folder.appendingPathComponent(".League.objectgraph.tmp-XyZ789")
        let other = folder.appendingPathComponent(".Other.objectgraph.tmp-AbC123")
        for file in [stale, fresh, other] { try Data("partial".utf8).write(to: file) }
        let old = Date(timeIntervalSinceNow: -3600)
        try FileManager.default.setAttributes([.modificationDate: old], ofItemAtPath: stale.path)
        try FileManager.default.setAttributes([.modificationDate: old], ofItemAtPath: other.path)
        let coordinator = StoreCoordinator(model: TestModels.league())
        try coordinator.addStore(type: .binary, at: url)
        #expect(!FileManager.default.fileExists(atPath: stale.path))
        #expect(FileManager.default.fileExists(atPath: fresh.path))
        #expect(FileManager.default.fileExists(atPath: other.path))
    }
}
