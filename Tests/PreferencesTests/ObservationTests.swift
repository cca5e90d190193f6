import Foundation
import Preferences
import Testing

/// Collects the values an observer receives.
final class Received<Value: Sendable>: @unchecked Sendable {
    // `lock` protects `values`.
    private let lock = NSLock()
    private var values: [Value] = []

    func append(_ value: Value) { lock.withLock { values.append(value) } }
    var all: [Value] { lock.withLock { values } }
}

@Suite struct ObservationTests {
    @Test func aClosureSeesEachChange() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let preferences = try folder.preferences()
        let received = Received<PreferenceValue?>()
        let observation = preferences.observe("theme") { received.append($0) }
        preferences.set("dark", forKey: "theme")
        preferences.set("dark", forKey: "theme")  // no change: no call
        preferences.set("light", forKey: "theme")
        preferences.set(1, forKey: "other")  // another key: no call
        preferences.removeObject(forKey: "theme")
        preferences.register(defaults: ["theme": "system"])
        #expect(received.all == [.string("dark"), .string("light"), nil, .string("system")])

        observation.cancel()
        preferences.set("after", forKey: "theme")
        #expect(received.all.count == 4, "no calls after cancel")
    }

    @Test func typedObservation() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let preferences = try folder.preferences()
        let received = Received<Int?>()
        let observation = preferences.observe("count", as: Int.self) { received.append($0) }
        preferences.set(1, forKey: "count")
        preferences.set(2, forKey: "count")
        #expect(received.all == [1, 2])
        withExtendedLifetime(observation) {}
    }

    @Test func releasingTheObservationStopsIt() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let preferences = try folder.preferences()
        let received = Received<PreferenceValue?>()
        do {
            let observation = preferences.observe("key") { received.append($0) }
            preferences.set(1, forKey: "key")
            withExtendedLifetime(observation) {}
        }
        preferences.set(2, forKey: "key")
        #expect(received.all == [.integer(1)])
    }

    @Test func anAsyncSequenceDeliversChanges() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let preferences = try folder.preferences()
        let changes = preferences.changes(forKey: "volume")
        preferences.set(1, forKey: "volume")
        preferences.set(2, forKey: "volume")
        preferences.removeObject(forKey: "volume")
        var seen: [PreferenceValue?] = []
        for await value in changes {
            seen.append(value)
            if seen.count == 3 { break }
        }
        #expect(seen == [.integer(1), .integer(2), nil])
    }

    @Test func aTypedAsyncSequence() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let preferences = try folder.preferences()
        let changes = preferences.changes(forKey: "name", as: String.self)
        preferences.set("a", forKey: "name")
        preferences.set("b", forKey: "name")
        var seen: [String?] = []
        for await value in changes {
            seen.append(value)
            if seen.count == 2 { break }
        }
        #expect(seen == ["a", "b"])
    }

    @Test func theSequenceEndsWhenThePreferencesGoAway() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        var preferences: Preferences? = try folder.preferences()
        let changes = try #require(preferences).changes(forKey: "key")
        preferences?.set(1, forKey: "key")
        try preferences?.synchronize()
        preferences = nil
        var seen: [PreferenceValue?] = []
        for await value in changes { seen.append(value) }
        #expect(seen == [.integer(1)])
    }
}
