import AppContainer
import Foundation
import Preferences
import Testing

@Suite struct FileTests {
    @Test func theFileIsAnXMLPropertyListThatFoundationReads() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let preferences = try folder.preferences()
        preferences.set("Ada", forKey: "name")
        preferences.set(3, forKey: "count")
        preferences.set(true, forKey: "flag")
        preferences.set([1.5, 2.5], forKey: "values")
        try preferences.synchronize()

        let container = try folder.container()
        #expect(
            preferences.fileURL
                == container.location(of: .preferences)
                .appendingPathComponent("com.example.tests.plist"))
        let data = try Data(contentsOf: preferences.fileURL)
        #expect(String(decoding: data.prefix(5), as: UTF8.self) == "<?xml")
        var format = PropertyListSerialization.PropertyListFormat.binary
        let object = try PropertyListSerialization.propertyList(from: data, format: &format)
        #expect(format == .xml)
        let dictionary = try #require(object as? [String: Any])
        #expect(dictionary["name"] as? String == "Ada")
        #expect(dictionary["count"] as? Int == 3)
        #expect(dictionary["flag"] as? Bool == true)
        #expect(dictionary["values"] as? [Double] == [1.5, 2.5])
        // Foundation's own decoder reads it too.
        struct Shape: Decodable { var name: String; var count: Int; var flag: Bool }
        let decoded = try PropertyListDecoder().decode(Shape.self, from: data)
        #expect(decoded.name == "Ada" && decoded.count == 3 && decoded.flag)
    }

    @Test func writingIsAtomicAndPrivate() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let preferences = try folder.preferences()
        for round in 0..<20 {
            preferences.set(round, forKey: "round")
            try preferences.synchronize()
        }
        let names = try FileManager.default.contentsOfDirectory(
            atPath: preferences.fileURL.deletingLastPathComponent().path)
        #expect(
            Set(names) == ["com.example.tests.plist", "com.example.tests.plist.lock"],
            "no temporary files are left behind")
        let attributes = try FileManager.default.attributesOfItem(atPath: preferences.fileURL.path)
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
    }

    @Test func aFileWrittenByFoundationIsRead() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let container = try folder.container()
        let file = try container.preferencesURL.appendingPathComponent("com.example.tests.plist")
        let data = try PropertyListSerialization.data(
            fromPropertyList: [
                "greeting": "hi", "n": 5, "on": false, "when": Date(timeIntervalSince1970: 10),
            ],
            format: .binary, options: 0)
        try data.write(to: file)
        let preferences = Preferences(container: container)
        #expect(preferences.string(forKey: "greeting") == "hi")
        #expect(preferences.integer(forKey: "n") == 5)
        #expect(preferences.object(forKey: "on") == .bool(false))
        #expect(preferences.date(forKey: "when") == Date(timeIntervalSince1970: 10))
    }

    @Test func changesAreWrittenAutomatically() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let preferences = try folder.preferences()
        preferences.autosaveDelay = 0.05
        preferences.set("soon", forKey: "autosaved")
        // Wait for the background write (bounded, generous; not a timing assertion).
        var stored: [String: Any] = [:]
        for _ in 0..<400 where stored["autosaved"] == nil {
            try await Task.sleep(nanoseconds: 25_000_000)
            stored = (try? TemporaryFolder.propertyList(at: preferences.fileURL)) ?? [:]
        }
        #expect(stored["autosaved"] as? String == "soon")
    }

    /// Writes `values` into the file the way another process would (atomic replace).
    private func writeAsAnotherProcess(_ values: [String: Any], to url: URL) throws {
        let data = try PropertyListSerialization.data(
            fromPropertyList: values, format: .xml, options: 0)
        try data.write(to: url, options: .atomic)
    }

    @Test func aChangeByAnotherWriterIsSeenOnTheNextRead() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let preferences = try folder.preferences()
        preferences.set("mine", forKey: "own")
        try preferences.synchronize()
        try writeAsAnotherProcess(["own": "mine", "shared": "first"], to: preferences.fileURL)
        #expect(preferences.string(forKey: "shared") == "first")
        try writeAsAnotherProcess(["own": "mine", "shared": "second"], to: preferences.fileURL)
        #expect(preferences.string(forKey: "shared") == "second")
        // Edited in place (same file, new contents) is seen too.
        let data = try PropertyListSerialization.data(
            fromPropertyList: ["shared": "third, a longer value"], format: .xml, options: 0)
        try data.write(to: preferences.fileURL)
        #expect(preferences.string(forKey: "shared") == "third, a longer value")
        #expect(preferences.string(forKey: "own") == nil, "the other writer removed it")
    }

    @Test func writingMergesOnlyThisProcesssKeys() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let preferences = try folder.preferences()
        preferences.set("a", forKey: "first")
        try preferences.synchronize()
        // Another process adds a key and changes one we never touched since.
        try writeAsAnotherProcess(["first": "a", "second": "b"], to: preferences.fileURL)
        preferences.set("c", forKey: "third")
        preferences.removeObject(forKey: "first")
        try preferences.synchronize()
        let stored = try TemporaryFolder.propertyList(at: preferences.fileURL)
        #expect(stored["first"] == nil)
        #expect(stored["second"] as? String == "b")
        #expect(stored["third"] as? String == "c")
    }

    @Test func instancesForOneFileShareTheirState() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let first = try folder.preferences()
        let second = try folder.preferences()
        second.register(defaults: ["size": 10])
        first.set("unsaved", forKey: "key")
        #expect(second.string(forKey: "key") == "unsaved", "seen before any write")
        #expect(first.integer(forKey: "size") == 10)
        let received = Received<PreferenceValue?>()
        let observation = second.observe("key") { received.append($0) }
        first.set("changed", forKey: "key")
        #expect(received.all == [.string("changed")])
        observation.cancel()
        try first.synchronize()
    }

    @Test func separateWritersLoseNothing() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        _ = try folder.container().preferencesURL
        let writers = try (0..<4).map { try folder.separateInstance(through: "link\($0)") }
        let rounds = 25
        await withTaskGroup(of: Void.self) { group in
            for (index, writer) in writers.enumerated() {
                group.addTask {
                    for round in 0..<rounds {
                        writer.set(round, forKey: "w\(index)-\(round)")
                        try? writer.synchronize()
                    }
                }
            }
        }
        let file = try folder.preferences().fileURL
        let stored = try TemporaryFolder.propertyList(at: file)
        #expect(stored.count == writers.count * rounds)
        for index in writers.indices {
            for round in 0..<rounds {
                #expect(stored["w\(index)-\(round)"] as? Int == round)
            }
        }
        // Each writer sees the others' keys on its next read.
        #expect(writers[0].integer(forKey: "w3-\(rounds - 1)") == rounds - 1)
    }

    @Test func manyThreadsShareOneInstance() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let preferences = try folder.preferences()
        await withTaskGroup(of: Void.self) { group in
            for task in 0..<8 {
                group.addTask {
                    for round in 0..<50 {
                        preferences.set(round, forKey: "t\(task)")
                        _ = preferences.integer(forKey: "t\(task)")
                        if round % 10 == 0 { try? preferences.synchronize() }
                    }
                }
            }
        }
        try preferences.synchronize()
        let stored = try TemporaryFolder.propertyList(at: preferences.fileURL)
        for task in 0..<8 { #expect(stored["t\(task)"] as? Int == 49) }
    }
}
