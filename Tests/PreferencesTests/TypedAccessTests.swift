import Foundation
import Preferences
import Testing

@Suite struct TypedAccessTests {
    @Test func everyTypeRoundTripsThroughTheFile() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let date = Date(timeIntervalSince1970: 1_700_000_000)
        let url = try #require(URL(string: "https://example.com/a?b=c"))
        let fileURL = URL(fileURLWithPath: "/var/data/file.txt")
        do {
            let preferences = try folder.preferences()
            preferences.set(true, forKey: "bool")
            preferences.set(42, forKey: "int")
            preferences.set(2.5, forKey: "double")
            preferences.set(Float(1.25), forKey: "float")
            preferences.set("hello", forKey: "string")
            preferences.set(url, forKey: "url")
            preferences.set(fileURL, forKey: "fileURL")
            preferences.set(Data([0, 1, 255]), forKey: "data")
            preferences.set(date, forKey: "date")
            preferences.set(["a", "b"], forKey: "strings")
            preferences.set([1, 2, 3], forKey: "ints")
            preferences.set(["x": 1.5, "y": 2.0], forKey: "point")
            preferences.set([["name": "n"]], forKey: "nested")
            try preferences.synchronize()
        }
        // A new instance reads everything back from the file.
        let reread = try folder.preferences()
        #expect(reread.bool(forKey: "bool") == true)
        #expect(reread.integer(forKey: "int") == 42)
        #expect(reread.double(forKey: "double") == 2.5)
        #expect(reread.float(forKey: "float") == 1.25)
        #expect(reread.string(forKey: "string") == "hello")
        #expect(reread.url(forKey: "url") == url)
        #expect(reread.url(forKey: "fileURL") == fileURL)
        #expect(reread.data(forKey: "data") == Data([0, 1, 255]))
        #expect(reread.date(forKey: "date") == date)
        #expect(reread.stringArray(forKey: "strings") == ["a", "b"])
        #expect(reread.value([Int].self, forKey: "ints") == [1, 2, 3])
        #expect(reread.value([String: Double].self, forKey: "point") == ["x": 1.5, "y": 2.0])
        #expect(reread.value([[String: String]].self, forKey: "nested") == [["name": "n"]])
        #expect(reread.array(forKey: "ints") == [1, 2, 3])
        #expect(reread.dictionary(forKey: "point") == ["x": 1.5, "y": 2.0])
        #expect(reread.object(forKey: "bool") == .bool(true))
        #expect(reread.object(forKey: "int") == .integer(42), "integers stay integers")
    }

    @Test func missingKeysGiveTheUsualDefaults() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let preferences = try folder.preferences()
        #expect(preferences.bool(forKey: "none") == false)
        #expect(preferences.integer(forKey: "none") == 0)
        #expect(preferences.double(forKey: "none") == 0)
        #expect(preferences.float(forKey: "none") == 0)
        #expect(preferences.string(forKey: "none") == nil)
        #expect(preferences.url(forKey: "none") == nil)
        #expect(preferences.data(forKey: "none") == nil)
        #expect(preferences.date(forKey: "none") == nil)
        #expect(preferences.array(forKey: "none") == nil)
        #expect(preferences.dictionary(forKey: "none") == nil)
        #expect(preferences.object(forKey: "none") == nil)
        #expect(preferences.dictionaryRepresentation().isEmpty)
    }

    @Test func readingConvertsLikeUserDefaults() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let preferences = try folder.preferences()
        preferences.set("42", forKey: "text")
        preferences.set("YES", forKey: "yes")
        preferences.set(7, forKey: "seven")
        preferences.set(3.9, forKey: "real")
        #expect(preferences.integer(forKey: "text") == 42)
        #expect(preferences.double(forKey: "text") == 42)
        #expect(preferences.bool(forKey: "yes"))
        #expect(preferences.bool(forKey: "seven"))
        #expect(preferences.double(forKey: "seven") == 7)
        #expect(preferences.string(forKey: "seven") == "7")
        #expect(preferences.integer(forKey: "real") == 3)
        #expect(preferences.data(forKey: "text") == nil, "no conversion from string to data")
        #expect(preferences.stringArray(forKey: "text") == nil)
    }

    @Test func registeredDefaultsShowUntilAValueIsStored() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let preferences = try folder.preferences()
        preferences.register(defaults: [
            "volume": 7, "theme": "dark", "enabled": true, "ratio": 0.5, "tags": ["a"],
            "window": ["width": 800],
        ])
        #expect(preferences.integer(forKey: "volume") == 7)
        #expect(preferences.string(forKey: "theme") == "dark")
        #expect(preferences.bool(forKey: "enabled"))
        #expect(preferences.double(forKey: "ratio") == 0.5)
        #expect(preferences.stringArray(forKey: "tags") == ["a"])
        #expect(preferences.dictionary(forKey: "window") == ["width": 800])

        preferences.set(3, forKey: "volume")
        #expect(preferences.integer(forKey: "volume") == 3)
        preferences.removeObject(forKey: "volume")
        #expect(preferences.integer(forKey: "volume") == 7, "the default shows again")

        try preferences.synchronize()
        let stored = try TemporaryFolder.propertyList(at: preferences.fileURL)
        #expect(stored.isEmpty, "defaults are never written")
    }

    @Test func dictionaryRepresentationMergesDefaultsAndValues() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let preferences = try folder.preferences()
        preferences.register(defaults: ["a": 1, "b": 2])
        preferences.set(20, forKey: "b")
        preferences.set("c", forKey: "c")
        #expect(preferences.dictionaryRepresentation() == ["a": 1, "b": 20, "c": "c"])
        preferences.removeAll()
        #expect(preferences.dictionaryRepresentation() == ["a": 1, "b": 2])
        try preferences.synchronize()
    }

    @Test func settingNilRemoves() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let preferences = try folder.preferences()
        preferences.set("x", forKey: "key")
        preferences.set(String?.none, forKey: "key")
        #expect(preferences.object(forKey: "key") == nil)
    }

    struct Profile: Codable, Equatable {
        var name: String
        var age: Int
        var tags: [String]
        var joined: Date
        enum Level: String, Codable { case basic, pro }
        var level: Level
    }

    @Test func anyCodableRoundTrips() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let profile = Profile(
            name: "Ada", age: 36, tags: ["math"], joined: Date(timeIntervalSince1970: 0),
            level: .pro)
        do {
            let preferences = try folder.preferences()
            try preferences.encode(profile, forKey: "profile")
            try preferences.encode(12, forKey: "scalar")
            try preferences.synchronize()
        }
        let reread = try folder.preferences()
        #expect(try reread.decode(Profile.self, forKey: "profile") == profile)
        #expect(try reread.decode(Int.self, forKey: "scalar") == 12)
        #expect(try reread.decode(Profile.self, forKey: "missing") == nil)
        // Stored as a readable dictionary, not opaque data.
        #expect(reread.dictionary(forKey: "profile")?["name"] == "Ada")
    }

    @Test func decodingTheWrongTypeIsATypedError() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let preferences = try folder.preferences()
        preferences.set("not a profile", forKey: "profile")
        let error = #expect(throws: PreferencesError.self) {
            try preferences.decode(Profile.self, forKey: "profile")
        }
        guard case .decodingFailed(let key, _) = error else {
            Issue.record("unexpected \(String(describing: error))")
            return
        }
        #expect(key == "profile")
    }

    @Test func badIdentifiersAreRejected() {
        #expect(throws: PreferencesError.self) {
            try Preferences(identifier: "../escape", environment: ["HOME": "/tmp"])
        }
    }

    @Test func xdgPlacementUsesTheConfigFolder() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let preferences = try Preferences(
            identifier: "com.example.xdg", environment: ["XDG_CONFIG_HOME": folder.url.path])
        #expect(
            preferences.fileURL.path
                == folder.url.path + "/com.example.xdg/com.example.xdg.plist")
    }

    @Test func standardHasAnIdentifier() {
        #expect(!Preferences.standard.identifier.isEmpty)
        #expect(Preferences.standard.fileURL.lastPathComponent.hasSuffix(".plist"))
    }
}
