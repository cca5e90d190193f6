import Foundation
import Testing

@testable import ObjectGraph

/// Layout rules on small models built in code.
@Suite("SQLite layout rules")
struct LayoutRulesTests {
    static func toMany(
        _ name: String, _ destination: String, inverse: String?, ordered: Bool = false
    ) -> Relationship {
        Relationship(
            name, destination: destination, toMany: true, inverse: inverse, isOrdered: ordered)
    }

    static func toOne(_ name: String, _ destination: String, inverse: String?) -> Relationship {
        Relationship(name, destination: destination, inverse: inverse)
    }

    @Test("roots and siblings are ordered case-insensitively")
    func caseInsensitiveNumbering() throws {
        let model = EntityModel(entities: [
            Entity("NWActivity"), Entity("NetworkAttachment"), Entity("banana"),
            Entity("Apple"), Entity("Zoo"), Entity("zebra", parent: "Zoo"),
            Entity("Ant", parent: "Zoo"),
        ])
        let layout = try StoreLayout(model: model)
        #expect(
            layout.entities.map(\.name) == [
                "Apple", "banana", "NetworkAttachment", "NWActivity", "Zoo", "Ant", "zebra",
            ])
        #expect(layout.entities.map(\.entityNumber) == Array(1...7))
        #expect(layout.entity(named: "zebra")?.superNumber == 5)
        #expect(layout.entity(named: "zebra")?.tableName == "ZZOO")
        #expect(layout.entity(named: "banana")?.tableName == "ZBANANA")
    }

    @Test("the same property name on sibling subentities: the lower Z_ENT keeps the bare name")
    func siblingCollisions() throws {
        var folder = Entity("Folder")
        folder.relationships = [Self.toMany("actions", "Action", inverse: nil)]
        let model = EntityModel(entities: [
            Entity("Action", isAbstract: true),
            Entity(
                "NoteAction", parent: "Action",
                attributes: [Attribute("date", type: .date), Attribute("note", type: .string)],
                relationships: [Self.toOne("folder", "Folder", inverse: nil)]),
            Entity(
                "FolderAction", parent: "Action", attributes: [Attribute("date", type: .string)],
                relationships: [Self.toOne("folder", "Folder", inverse: nil)]),
            folder, Entity("IMAPFolder", parent: "Folder"),
        ])
        let layout = try StoreLayout(model: model)
        // Action 1, FolderAction 2, NoteAction 3, Folder 4, IMAPFolder 5.
        let folderAction = try #require(layout.entity(named: "FolderAction"))
        let noteAction = try #require(layout.entity(named: "NoteAction"))
        #expect(folderAction.entityNumber == 2)
        #expect(folderAction.attributeColumns["date"]?.name == "ZDATE")
        #expect(folderAction.attributeColumns["date"]?.type == .varchar)
        #expect(noteAction.attributeColumns["date"]?.name == "ZDATE1")
        #expect(noteAction.attributeColumns["date"]?.type == .timestamp)
        #expect(
            folderAction.relationships["folder"]
                == .foreignKey(table: "ZACTION", column: "ZFOLDER", entityColumn: "Z4_FOLDER"))
        #expect(
            noteAction.relationships["folder"]
                == .foreignKey(table: "ZACTION", column: "ZFOLDER1", entityColumn: "Z4_FOLDER1"))
        let table = try #require(layout.table(named: "ZACTION"))
        #expect(
            table.columns.map(\.name) == [
                "Z_PK", "Z_ENT", "Z_OPT", "ZFOLDER", "Z4_FOLDER", "ZFOLDER1", "Z4_FOLDER1",
                "ZDATE1", "ZDATE", "ZNOTE",
            ])
        #expect(
            table.column(named: "Z4_FOLDER1")?.role
                == .foreignEntity(entity: "NoteAction", relationship: "folder"))
        #expect(layout.entity(named: "Action")?.coveredEntityNumbers == [1, 2, 3])
    }

    @Test("names equal once upper-cased get suffixes within one entity too")
    func caseVariantNames() throws {
        let model = EntityModel(entities: [
            Entity(
                "Thing",
                attributes: [Attribute("Name", type: .string), Attribute("name", type: .string)])
        ])
        let thing = try #require(try StoreLayout(model: model).entity(named: "Thing"))
        // Code-unit order: "Name" before "name".
        #expect(thing.attributeColumns["Name"]?.name == "ZNAME")
        #expect(thing.attributeColumns["name"]?.name == "ZNAME1")
    }

    @Test("transient properties have no column")
    func transients() throws {
        var cached = Attribute("cached", type: .string)
        cached.isTransient = true
        var scratch = Attribute("scratch", type: .undefined)
        scratch.isTransient = true
        var link = Self.toOne("link", "Item", inverse: nil)
        link.isTransient = true
        let model = EntityModel(entities: [
            Entity(
                "Item", attributes: [cached, scratch, Attribute("title", type: .string)],
                relationships: [link])
        ])
        let layout = try StoreLayout(model: model)
        let item = try #require(layout.entity(named: "Item"))
        #expect(item.attributeColumns.keys.sorted() == ["title"])
        #expect(item.relationships.isEmpty)
        #expect(layout.tables.first?.columns.map(\.name) == ["Z_PK", "Z_ENT", "Z_OPT", "ZTITLE"])
    }

    @Test("one-to-one relationships keep a foreign key on both sides")
    func oneToOne() throws {
        let model = EntityModel(entities: [
            Entity(
                "Person", relationships: [Self.toOne("passport", "Passport", inverse: "holder")]),
            Entity(
                "Passport", relationships: [Self.toOne("holder", "Person", inverse: "passport")]),
        ])
        let layout = try StoreLayout(model: model)
        #expect(
            layout.entity(named: "Person")?.relationships["passport"]
                == .foreignKey(table: "ZPERSON", column: "ZPASSPORT", entityColumn: nil))
        #expect(
            layout.entity(named: "Passport")?.relationships["holder"]
                == .foreignKey(table: "ZPASSPORT", column: "ZHOLDER", entityColumn: nil))
        #expect(layout.joinTables.isEmpty)
    }

    @Test("reflexive many-to-many: the later name names the table (EasyLife's Z_2BLOCKING)")
    func reflexiveManyToMany() throws {
        let model = EntityModel(entities: [
            Entity("Project"),
            Entity(
                "TodoItem",
                relationships: [
                    Self.toMany("blockedBy", "TodoItem", inverse: "blocking"),
                    Self.toMany("blocking", "TodoItem", inverse: "blockedBy"),
                ]),
        ])
        let layout = try StoreLayout(model: model)
        let join = try #require(layout.joinTables.first)
        #expect(layout.joinTables.count == 1)
        #expect(join.name == "Z_2BLOCKING")
        #expect(join.columns.map(\.name) == ["Z_2BLOCKEDBY", "Z_2BLOCKING"])
        #expect(join.indexName == "Z_2BLOCKING_Z_2BLOCKING_INDEX")
        let item = try #require(layout.entity(named: "TodoItem"))
        #expect(
            item.relationships["blocking"]
                == .joinTable(
                    table: "Z_2BLOCKING", ownerColumn: "Z_2BLOCKEDBY",
                    destinationColumn: "Z_2BLOCKING", orderColumn: nil))
        #expect(
            item.relationships["blockedBy"]
                == .joinTable(
                    table: "Z_2BLOCKING", ownerColumn: "Z_2BLOCKING",
                    destinationColumn: "Z_2BLOCKEDBY", orderColumn: nil))
    }

    @Test("a self-inverse many-to-many gets one table with a suffixed second column")
    func selfInverse() throws {
        let model = EntityModel(entities: [
            Entity("User", relationships: [Self.toMany("friends", "User", inverse: "friends")])
        ])
        let layout = try StoreLayout(model: model)
        let join = try #require(layout.joinTables.first)
        #expect(join.name == "Z_1FRIENDS")
        #expect(join.columns.map(\.name) == ["Z_1FRIENDS", "Z_1FRIENDS1"])
        #expect(
            layout.entity(named: "User")?.relationships["friends"]
                == .joinTable(
                    table: "Z_1FRIENDS", ownerColumn: "Z_1FRIENDS",
                    destinationColumn: "Z_1FRIENDS1", orderColumn: nil))
    }

    @Test("join-table column names are unique across join tables (MoneyWell's Z_24TAGS1)")
    func joinColumnCollisions() throws {
        let model = EntityModel(entities: [
            Entity("Activity", relationships: [Self.toMany("tags", "Tag", inverse: "activities")]),
            Entity("Budget", relationships: [Self.toMany("tags", "Tag", inverse: "budgets")]),
            Entity(
                "Tag",
                relationships: [
                    Self.toMany("activities", "Activity", inverse: "tags"),
                    Self.toMany("budgets", "Budget", inverse: "tags"),
                ]),
        ])
        let layout = try StoreLayout(model: model)
        #expect(layout.joinTables.map(\.name) == ["Z_1TAGS", "Z_2TAGS"])
        #expect(
            layout.joinTables.map { $0.columns.map(\.name) } == [
                ["Z_1ACTIVITIES", "Z_3TAGS"], ["Z_2BUDGETS", "Z_3TAGS1"],
            ])
        #expect(
            layout.entity(named: "Tag")?.relationships["budgets"]
                == .joinTable(
                    table: "Z_2TAGS", ownerColumn: "Z_3TAGS1", destinationColumn: "Z_2BUDGETS",
                    orderColumn: nil))
    }

    @Test("ordered many-to-many and to-many without inverse use join tables with order keys")
    func orderedAndUnpaired() throws {
        let model = EntityModel(entities: [
            Entity(
                "Playlist",
                relationships: [
                    Self.toMany("songs", "Song", inverse: "playlists", ordered: true),
                    Self.toMany("covers", "Image", inverse: nil, ordered: true),
                    Self.toMany("tags", "Tag", inverse: nil),
                ]),
            Entity("Song", relationships: [Self.toMany("playlists", "Playlist", inverse: "songs")]),
            Entity("Image"), Entity("Tag"),
        ])
        let layout = try StoreLayout(model: model)
        // Image 1, Playlist 2, Song 3, Tag 4.
        let playlist = try #require(layout.entity(named: "Playlist"))
        #expect(
            playlist.relationships["songs"]
                == .joinTable(
                    table: "Z_2SONGS", ownerColumn: "Z_2PLAYLISTS", destinationColumn: "Z_3SONGS",
                    orderColumn: "Z_FOK_3SONGS"))
        #expect(
            layout.entity(named: "Song")?.relationships["playlists"]
                == .joinTable(
                    table: "Z_2SONGS", ownerColumn: "Z_3SONGS", destinationColumn: "Z_2PLAYLISTS",
                    orderColumn: nil))
        #expect(
            playlist.relationships["covers"]
                == .joinTable(
                    table: "Z_2COVERS", ownerColumn: "Z_2INVERSE_COVERS",
                    destinationColumn: "Z_1COVERS", orderColumn: "Z_FOK_1COVERS"))
        #expect(
            playlist.relationships["tags"]
                == .joinTable(
                    table: "Z_2TAGS", ownerColumn: "Z_2INVERSE_TAGS",
                    destinationColumn: "Z_4TAGS", orderColumn: nil))
        #expect(
            layout.joinTable(named: "Z_2SONGS")?.columns.map(\.name) == [
                "Z_2PLAYLISTS", "Z_3SONGS", "Z_FOK_3SONGS",
            ])
    }

    @Test("a to-many whose inverse is transient is stored like one without an inverse")
    func transientInverse() throws {
        var back = Self.toOne("list", "List", inverse: "items")
        back.isTransient = true
        let model = EntityModel(entities: [
            Entity("Item", relationships: [back]),
            Entity("List", relationships: [Self.toMany("items", "Item", inverse: "list")]),
        ])
        let layout = try StoreLayout(model: model)
        #expect(
            layout.entity(named: "List")?.relationships["items"]
                == .joinTable(
                    table: "Z_2ITEMS", ownerColumn: "Z_2INVERSE_ITEMS",
                    destinationColumn: "Z_1ITEMS", orderColumn: nil))
        #expect(layout.table(named: "ZITEM")?.columns.count == 3)
    }

    @Test("relationships declared on a parent are shared by subentities")
    func inheritedRelationships() throws {
        let model = EntityModel(entities: [
            Entity("Owner", relationships: [Self.toMany("things", "Thing", inverse: "owner")]),
            Entity("Thing", relationships: [Self.toOne("owner", "Owner", inverse: "things")]),
            Entity("Gadget", parent: "Thing"),
        ])
        let layout = try StoreLayout(model: model)
        // Owner 1, Thing 2, Gadget 3: the to-many points at Thing, which has subentities.
        let gadget = try #require(layout.entity(named: "Gadget"))
        #expect(
            gadget.relationships["owner"]
                == .foreignKey(table: "ZTHING", column: "ZOWNER", entityColumn: nil))
        #expect(
            layout.entity(named: "Owner")?.relationships["things"]
                == .inverseForeignKey(
                    table: "ZTHING", column: "ZOWNER", entityColumn: nil, orderColumn: nil))
        #expect(layout.indexes.contains { $0.name == "ZTHING_Z_ENT_INDEX" })
        #expect(layout.indexes.contains { $0.name == "ZTHING_ZOWNER_INDEX" })
    }

    @Test("compound indexes, descending fetch indexes and indexed attributes")
    func fetchIndexes() throws {
        var entity = Entity(
            "Event",
            attributes: [
                Attribute("start", type: .date), Attribute("name", type: .string, isIndexed: true),
            ],
            relationships: [Self.toOne("place", "Place", inverse: nil)])
        entity.fetchIndexes = [
            FetchIndex(
                "byStartAndPlace",
                elements: [
                    FetchIndex.Element(property: "start", isAscending: false),
                    FetchIndex.Element(property: "place"),
                ])
        ]
        entity.compoundIndexes = [["name", "start"], ["start"]]
        entity.uniquenessConstraints = [["name", "place"]]
        let layout = try StoreLayout(model: EntityModel(entities: [entity, Entity("Place")]))
        let sql = layout.indexes.map(layout.createStatement(for:))
        #expect(
            sql.contains(
                "CREATE INDEX Z_Event_byStartAndPlace ON ZEVENT (ZSTART COLLATE BINARY DESC, ZPLACE COLLATE BINARY ASC)"
            ))
        #expect(
            sql.contains(
                "CREATE INDEX Z_Event_byNameIndex ON ZEVENT (ZNAME COLLATE BINARY ASC)"))
        #expect(
            sql.contains(
                "CREATE INDEX Z_Event_compoundIndex ON ZEVENT (ZNAME COLLATE BINARY ASC, ZSTART COLLATE BINARY ASC)"
            ))
        #expect(
            sql.contains(
                "CREATE INDEX Z_Event_compoundIndex1 ON ZEVENT (ZSTART COLLATE BINARY ASC)")
        )
        #expect(
            sql.contains(
                "CREATE UNIQUE INDEX Z_Event_UNIQUE_name_place ON ZEVENT (ZNAME COLLATE BINARY ASC, ZPLACE COLLATE BINARY ASC)"
            ))
        #expect(sql.contains("CREATE INDEX ZEVENT_ZPLACE_INDEX ON ZEVENT (ZPLACE)"))
    }

    @Test("identifiers are bare as in Core Data, but those with quotes, quoted with quotes doubled")
    func quoting() throws {
        let model = EntityModel(entities: [
            Entity(
                "Order",
                attributes: [
                    Attribute("key", type: .string), Attribute("we\"ird", type: .integer64),
                ],
                relationships: [Self.toOne("group", "Gr\"oup", inverse: nil)]),
            Entity("Gr\"oup", attributes: [Attribute("index", type: .integer16)]),
        ])
        let layout = try StoreLayout(model: model)
        let sql = layout.createStatements().joined(separator: "\n")
        #expect(
            sql.contains(
                #"CREATE TABLE "ZGR""OUP" ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZINDEX INTEGER )"#
            ))
        #expect(sql.contains(#""ZWE""IRD" INTEGER"#))
        #expect(sql.contains("CREATE TABLE ZORDER ("))
        #expect(sql.contains("CREATE INDEX ZORDER_ZGROUP_INDEX ON ZORDER (ZGROUP)"))
    }
}
