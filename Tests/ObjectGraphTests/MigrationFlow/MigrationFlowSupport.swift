import Foundation
import ObjectGraph

/// Versioned model bundles written into temporary folders, and stores of their versions, for
/// the migration-flow tests.
enum MigrationFlowSupport {
    /// `Moods` (Person ↔ Mood), then `Moods 2` (Mood gains `rating`, Integer 16, default 0),
    /// then `Moods 3` (Person gains an optional `nickname`).
    static let moodVersions: [(name: String, body: String)] = [
        ("Moods", moodsBody(moodExtra: "", personExtra: "")),
        (
            "Moods 2",
            moodsBody(
                moodExtra: """
                    <attribute name="rating" optional="YES" attributeType="Integer 16" defaultValueString="0" usesScalarValueType="YES"/>
                    """, personExtra: "")
        ),
        (
            "Moods 3",
            moodsBody(
                moodExtra: """
                    <attribute name="rating" optional="YES" attributeType="Integer 16" defaultValueString="0" usesScalarValueType="YES"/>
                    """,
                personExtra: """
                    <attribute name="nickname" optional="YES" attributeType="String"/>
                    """)
        ),
    ]

    static func moodsBody(moodExtra: String, personExtra: String) -> String {
        """
        <entity name="Mood" representedClassName="Mood" syncable="YES">
            <attribute name="name" optional="YES" attributeType="String"/>
            <attribute name="score" optional="YES" attributeType="Integer 16" defaultValueString="0" usesScalarValueType="YES"/>
            \(moodExtra)
            <relationship name="person" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Person" inverseName="moods" inverseEntity="Person"/>
        </entity>
        <entity name="Person" representedClassName="Person" syncable="YES">
            <attribute name="name" optional="YES" attributeType="String"/>
            \(personExtra)
            <relationship name="moods" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Mood" inverseName="person" inverseEntity="Mood"/>
        </entity>
        """
    }

    /// The `contents` of a model with `body` inside `<model>`.
    static func modelXML(_ body: String) -> String {
        """
        <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
        <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" \
        lastSavedToolsVersion="23231" systemVersion="24A335" minimumToolsVersion="Automatic" \
        sourceLanguage="Swift" userDefinedModelVersionIdentifier="">
        \(body)
        </model>
        """
    }

    /// Writes `<name>.xcdatamodeld` in `folder` with `versions` (the last one current).
    static func writeBundle(
        named name: String, versions: [(name: String, body: String)], in folder: URL,
        current: String? = nil
    ) throws -> URL {
        let bundle = folder.appendingPathComponent("\(name).xcdatamodeld")
        for version in versions {
            let model = bundle.appendingPathComponent("\(version.name).xcdatamodel")
            try FileManager.default.createDirectory(at: model, withIntermediateDirectories: true)
            try Data(modelXML(version.body).utf8).write(
                to: model.appendingPathComponent("contents"))
        }
        let chosen = current ?? versions.last?.name ?? name
        let plist = """
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0"><dict><key>_XCCurrentVersionName</key>\
            <string>\(chosen).xcdatamodel</string></dict></plist>
            """
        try Data(plist.utf8).write(to: bundle.appendingPathComponent(".xccurrentversion"))
        return bundle
    }

    /// The Moods bundle in `folder`.
    static func moodsBundle(in folder: URL) throws -> ModelBundle {
        try ModelBundle(contentsOf: writeBundle(named: "Moods", versions: moodVersions, in: folder))
    }

    /// Writes a store of `model` at `url`: Ann with moods happy (3), calm (5), tired (1) in
    /// that order of insertion, and Bob with none.
    static func writeMoods(_ type: StoreType, at url: URL, model: EntityModel) throws {
        let coordinator = StoreCoordinator(model: model)
        try coordinator.addStore(
            type: type, at: url,
            options: StoreOptions(migration: MigrationOptions(migratesAutomatically: false)))
        let context = ManagedContext(coordinator: coordinator)
        let ann = try context.insert("Person")
        try ann.set("Ann", for: "name")
        let bob = try context.insert("Person")
        try bob.set("Bob", for: "name")
        for (name, score) in [("happy", 3), ("calm", 5), ("tired", 1)] {
            let mood = try context.insert("Mood")
            try mood.set(name, for: "name")
            try mood.set(Int16(score), for: "score")
            try mood.setObject(ann, for: "person")
        }
        try context.save()
    }

    /// What a Moods store holds: each person's name with their moods' names (sorted), and
    /// every mood's name, score and (when the model has it) rating.
    struct Contents: Equatable {
        var people: [String: [String]]
        var moods: [String: [Int64]]
    }

    /// Reads a Moods store through `coordinator`.
    static func contents(_ coordinator: StoreCoordinator) throws -> Contents {
        let context = ManagedContext(coordinator: coordinator)
        var people: [String: [String]] = [:]
        for person in try context.fetch(FetchRequest(entityName: "Person")) {
            people[person["name"] as String? ?? "?"] =
                try person.objects(for: "moods").map { $0["name"] as String? ?? "?" }.sorted()
        }
        let hasRating = coordinator.model.entity(named: "Mood")?.attributes.contains {
            $0.name == "rating"
        }
        var moods: [String: [Int64]] = [:]
        for mood in try context.fetch(FetchRequest(entityName: "Mood")) {
            var values = [Int64(mood["score"] as Int16? ?? -1)]
            if hasRating == true { values.append(Int64(mood["rating"] as Int16? ?? -1)) }
            moods[mood["name"] as String? ?? "?"] = values
        }
        return Contents(people: people, moods: moods)
    }

    /// The file name of a store of `type`.
    static func fileName(_ type: StoreType) -> String {
        switch type {
        case .xml: return "Moods.xml"
        case .binary: return "Moods.objectgraph"
        default: return "Moods.sqlite"
        }
    }

    /// `shared/corpus` beside the package or its parent folder (worktrees), or `nil`.
    static let corpus: URL? = {
        var folder = TestSupport.packageRoot
        for _ in 0..<3 {
            folder = folder.deletingLastPathComponent()
            let candidate = folder.appendingPathComponent("shared/corpus")
            if FileManager.default.fileExists(atPath: candidate.path) { return candidate }
        }
        return nil
    }()
}
