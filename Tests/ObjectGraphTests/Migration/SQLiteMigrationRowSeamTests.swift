import Foundation
import Testing

@testable import ObjectGraph

@Suite("SQLite migration: the row seam of mapping models")
struct SQLiteMigrationRowSeamTests {
    typealias Support = SQLiteMigrationSupport

    /// Note (title or heading, words; tags ↔ Tag.notes), Tag (name).
    static func notes(heading: Bool) -> EntityModel {
        var note = Entity("Note")
        note.attributes = [
            Attribute(heading ? "heading" : "title", type: .string),
            Attribute("words", type: .integer32),
        ]
        note.relationships = [
            Relationship("tags", destination: "Tag", toMany: true, inverse: "notes")
        ]
        var tag = Entity("Tag")
        tag.attributes = [Attribute("name", type: .string)]
        tag.relationships = [
            Relationship("notes", destination: "Note", toMany: true, inverse: "tags")
        ]
        return EntityModel(entities: [note, tag])
    }

    @Test("rows go out under the source layout and come back under the destination layout")
    func rowSeam() throws {
        let folder = try TestSupport.makeTemporaryFolder()
        defer { TestSupport.removeTemporaryFolder(folder) }
        let url = folder.appendingPathComponent("Notes.sqlite")
        let v1 = Self.notes(heading: false)
        let v2 = Self.notes(heading: true)
        var uris: [String: URL] = [:]
        do {
            let context = try Support.open(url, v1)
            let tag = try context.insert("Tag")
            try tag.set("home", for: "name")
            var notes: [String: ManagedObject] = [:]
            for (title, words) in [("a", 1), ("b", 2)] {
                let note = try context.insert("Note")
                try note.set(title, for: "title")
                try note.set(words, for: "words")
                try note.setObjects([tag], for: "tags")
                notes[title] = note
            }
            try context.save()
            for (title, note) in notes { uris[title] = note.objectID.uriRepresentation }
        }
        let mapping = MappingModel(
            sourceModel: v1, destinationModel: v2,
            entityMappings: [
                EntityMapping(
                    name: "NoteToNote", kind: .custom, sourceEntityName: "Note",
                    destinationEntityName: "Note")
            ])
        let step = Support.step(v1, v2, mapping)
        var seen = 0
        try SQLiteStore.migrate(
            at: url, steps: [step],
            rowMapper: { _, rows, source, destination in
                seen = rows.count
                return rows.map { row in
                    var row = row
                    let entity = source.entities[row.entityIndex]
                    guard let target = destination.entity(named: entity.entity.name) else {
                        return row
                    }
                    var values = Array(
                        repeating: StoredValue.value(.null), count: target.properties.count)
                    for (position, name) in entity.names.enumerated() {
                        let destinationName = name == "title" ? "heading" : name
                        guard let at = target.positionByName[destinationName] else { continue }
                        var value = row.values[position]
                        if case .value(.string(let text)) = value {
                            value = .value(.string(text.uppercased()))
                        }
                        values[at] = value
                    }
                    row.entityIndex = target.index
                    row.values = values
                    return row
                }
            })
        #expect(seen == 3)
        try Support.expectFreshSchema(url, v2, folder: folder)
        let context = try Support.open(url, v2)
        let a = try context.existingObject(
            with: try context.coordinator.objectID(forURI: try #require(uris["a"])))
        #expect(a["heading"] as String? == "A")
        #expect(a["words"] as Int? == 1)
        #expect(try a.objects(for: "tags").compactMap { $0["name"] as String? } == ["HOME"])
        let tag = try #require(try context.fetch(FetchRequest(entityName: "Tag")).first)
        #expect(try tag.objects(for: "notes").count == 2)
    }

    @Test("a mapping model without a row mapper is refused and changes nothing")
    func noRowMapper() throws {
        let folder = try TestSupport.makeTemporaryFolder()
        defer { TestSupport.removeTemporaryFolder(folder) }
        let url = folder.appendingPathComponent("Notes.sqlite")
        let v1 = Self.notes(heading: false)
        let v2 = Self.notes(heading: true)
        do { _ = try Support.open(url, v1) }
        let mapping = MappingModel(sourceModel: v1, destinationModel: v2, entityMappings: [])
        #expect {
            try SQLiteStoreMigration.migrate(storeAt: url, steps: [Support.step(v1, v2, mapping)])
        } throws: { error in
            if case .stageFailed? = error as? MigrationError { return true }
            return false
        }
        _ = try Support.open(url, v1)
    }
}
