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

    @Test func aChangeByAnotherWriterIsSeenOnTheNextRead() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let reader = try folder.preferences()
        let writer = try folder.preferences()
        #expect(reader.string(forKey: "shared") == nil)
        writer.set("first", forKey: "shared")
        try writer.synchronize()
        #expect(reader.string(forKey: "shared") == "first")
        writer.set("second", forKey: "shared")
        try writer.synchronize()
        #expect(reader.string(forKey: "shared") == "second")
        // An outside tool replacing the file.
        let data = try PropertyListSerialization.data(
            fromPropertyList: ["shared": "third"], format: .xml, options: 0)
        try data.write(to: reader.fileURL, options: .atomic)
        #expect(reader.string(forKey: "shared") == "third")
    }

    @Test func writersMergeTheirOwnKeysOnly() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let first = try folder.preferences()
        let second = try folder.preferences()
        first.set("a", forKey: "first")
        second.set("b", forKey: "second")
        try first.synchronize()
        try second.synchronize()
        let stored = try TemporaryFolder.propertyList(at: first.fileURL)
        #expect(stored["first"] as? String == "a")
        #expect(stored["second"] as? String == "b")
        #expect(first.string(forKey: "second") == "b")
        // A removal by one writer is merged too, and the other's keys stay.
        second.removeObject(forKey: "first")
        try second.synchronize()
        let after = try TemporaryFolder.propertyList(at: first.fileURL)
        #expect(after["first"] == nil)
        #expect(after["second"] as? String == "b")
    }

    @Test func concurrentInstancesLoseNothing() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let writers = try (0..<4).map { _ in try folder.preferences() }
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
        let stored = try TemporaryFolder.propertyList(at: writers[0].fileURL)
        #expect(stored.count == writers.count * rounds)
        for index in writers.indices {
            for round in 0..<rounds {
                #expect(stored["w\(index)-\(round)"] as? Int == round)
            }
        }
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
