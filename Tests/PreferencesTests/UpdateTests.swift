import Foundation
import Preferences
import Testing

/// `update(forKey:_:)`: a read-modify-write of one key under the writers' lock.
@Suite struct UpdateTests {
    /// Runs `body(index)` on `count` threads at once and waits for all of them.
    private func onThreads(_ count: Int, _ body: @escaping @Sendable (Int) -> Void) {
        let group = DispatchGroup()
        for index in 0..<count {
            group.enter()
            let thread = Thread {
                body(index)
                group.leave()
            }
            thread.start()
        }
        group.wait()
    }

    @Test func concurrentAppendsFromSeparateWritersLoseNothing() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        _ = try folder.container().preferencesURL
        // Four writers with their own state and lock descriptor, as four processes would be.
        let writers = try (0..<4).map { try folder.separateInstance(through: "link\($0)") }
        let rounds = 100
        let failures = ErrorLog()
        onThreads(writers.count) { index in
            for round in 0..<rounds {
                do {
                    let element = PreferenceValue.string("w\(index)-\(round)")
                    try writers[index].update(forKey: "list") { current in
                        guard case .array(let list)? = current else { return .array([element]) }
                        return .array(list + [element])
                    }
                } catch {
                    failures.record(
                        error as? PreferencesError
                            ?? .fileSystem(path: "", operation: "update", reason: "\(error)"))
                }
            }
        }
        #expect(failures.all.isEmpty)
        let stored = try TemporaryFolder.propertyList(at: try folder.preferences().fileURL)
        let list = try #require(stored["list"] as? [String])
        #expect(list.count == writers.count * rounds)
        #expect(Set(list).count == writers.count * rounds)
    }

    @Test func concurrentCountersFromSeparateWritersLoseNothing() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        _ = try folder.container().preferencesURL
        let writers = try (0..<4).map { try folder.separateInstance(through: "link\($0)") }
        onThreads(writers.count) { index in
            for _ in 0..<50 {
                _ = try? writers[index].update(Int.self, forKey: "count") { ($0 ?? 0) + 1 }
            }
        }
        let stored = try TemporaryFolder.propertyList(at: try folder.preferences().fileURL)
        #expect(stored["count"] as? Int == 200)
        #expect(writers[0].integer(forKey: "count") == 200)
    }

    @Test func theTransformSeesTheFileThePendingChangesAndTheDefaults() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let preferences = try folder.preferences()
        preferences.register(defaults: ["volume": 5])
        #expect(try preferences.update(Int.self, forKey: "volume") { ($0 ?? 0) + 1 } == 6)
        preferences.set(10, forKey: "volume")
        preferences.set("kept", forKey: "other")
        #expect(try preferences.update(Int.self, forKey: "volume") { ($0 ?? 0) + 1 } == 11)
        let stored = try TemporaryFolder.propertyList(at: preferences.fileURL)
        #expect(stored["volume"] as? Int == 11)
        #expect(stored["other"] as? String == "kept", "pending changes are written with it")
        // Another writer's value is the starting point.
        let other = try folder.separateInstance(through: "link")
        other.set(100, forKey: "volume")
        try other.synchronize()
        #expect(try preferences.update(Int.self, forKey: "volume") { ($0 ?? 0) + 1 } == 101)
        // nil removes.
        #expect(try preferences.update(forKey: "volume") { _ in nil } == nil)
        #expect(try TemporaryFolder.propertyList(at: preferences.fileURL)["volume"] == nil)
        #expect(preferences.integer(forKey: "volume") == 5, "the default shows again")
    }

    @Test func aThrowingTransformWritesNothing() throws {
        struct Refused: Error {}
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let preferences = try folder.preferences()
        preferences.set("before", forKey: "name")
        try preferences.synchronize()
        let before = try Data(contentsOf: preferences.fileURL)
        #expect(throws: Refused.self) {
            try preferences.update(forKey: "name") { _ in throw Refused() }
        }
        #expect(try Data(contentsOf: preferences.fileURL) == before)
        #expect(preferences.string(forKey: "name") == "before")
    }

    @Test func aStoredValueOfAnotherTypeIsADecodingError() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let preferences = try folder.preferences()
        preferences.set(["a"], forKey: "list")
        #expect(throws: PreferencesError.self) {
            try preferences.update(Int.self, forKey: "list") { ($0 ?? 0) + 1 }
        }
        #expect(preferences.stringArray(forKey: "list") == ["a"])
    }

    @Test func observersSeeTheUpdatedValue() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let preferences = try folder.preferences()
        let received = Received<PreferenceValue?>()
        let observation = preferences.observe("count") { value in
            received.append(value)
            try? preferences.synchronize()  // a handler may write again
        }
        try preferences.update(Int.self, forKey: "count") { ($0 ?? 0) + 1 }
        try preferences.update(Int.self, forKey: "count") { ($0 ?? 0) + 1 }
        #expect(received.all == [.integer(1), .integer(2)])
        observation.cancel()
    }
}
