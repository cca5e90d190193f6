import Foundation
import SQLiteDatabase
import Testing

@testable import ObjectGraph

/// The compiler's contract with the store: bound values, quoted identifiers, typed refusals.
@Suite("SQL query compiler")
struct SQLQueryCompilerTests {
    static func compiler() throws -> (SQLQueryCompiler, DifferentialDataSet) {
        let data = try DifferentialDataSet(seed: 1)
        return (SQLQueryCompiler(layout: data.layout, model: data.model), data)
    }

    static func select(
        _ compiler: SQLQueryCompiler, _ entity: String, _ format: String,
        sort: [ObjectGraph.SortDescriptor] = [], offset: Int = 0, limit: Int = 0
    ) throws -> CompiledQuery {
        try compiler.select(
            entity: entity, includesSubentities: true, predicate: Predicate(format: format),
            sortDescriptors: sort, offset: offset, limit: limit, columns: ["Z_PK", "Z_ENT"])
    }

    static func rejection(_ compiler: SQLQueryCompiler, _ entity: String, _ format: String)
        -> SQLTranslationError?
    {
        do {
            _ = try select(compiler, entity, format)
            return nil
        } catch let error as SQLTranslationError {
            return error
        } catch {
            return nil
        }
    }

    @Test("values are bound arguments, never text in the SQL")
    func boundValues() throws {
        let (compiler, _) = try Self.compiler()
        let injected = try compiler.select(
            entity: "Item", includesSubentities: true,
            predicate: Predicate(
                format: "name == %@ AND count > %@", "x'); DROP TABLE ZITEM; --", 41),
            sortDescriptors: [], offset: 3, limit: 7, columns: ["Z_PK"])
        #expect(!injected.sql.contains("DROP"))
        #expect(!injected.sql.contains("41"))
        #expect(injected.arguments.contains(.text("x'); DROP TABLE ZITEM; --")))
        #expect(injected.arguments.contains(.integer(41)))
        // LIMIT and OFFSET are bound too, last.
        #expect(injected.sql.hasSuffix("LIMIT ? OFFSET ?"))
        #expect(Array(injected.arguments.suffix(2)) == [.integer(7), .integer(3)])
        #expect(injected.sql.filter { $0 == "?" }.count == injected.arguments.count)
    }

    @Test("identifiers with quotes and keywords are quoted, and the SQL runs")
    func quotedIdentifiers() throws {
        let model = EntityModel(entities: [
            Entity(
                "Order",
                attributes: [
                    Attribute("na\"me", type: .string), Attribute("select", type: .integer32),
                ],
                relationships: [Relationship("group", destination: "Group", inverse: "orders")]),
            Entity(
                "Group", attributes: [Attribute("where", type: .string)],
                relationships: [
                    Relationship("orders", destination: "Order", toMany: true, inverse: "group")
                ]),
        ])
        let layout = try StoreLayout(model: model)
        let compiler = SQLQueryCompiler(layout: layout, model: model)
        let db = try Database.inMemory()
        try SQLFunctions.register(on: db)
        for sql in layout.createStatements() { try db.execute(sql: sql) }
        try db.execute(
            sql:
                "INSERT INTO \"ZGROUP\" (\"Z_PK\", \"Z_ENT\", \"Z_OPT\", \"ZWHERE\") VALUES (1, ?, 1, 'g')",
            arguments: [layout.entity(named: "Group")?.entityNumber ?? 0])
        try db.execute(
            sql:
                "INSERT INTO \"ZORDER\" (\"Z_PK\", \"Z_ENT\", \"Z_OPT\", \"ZNA\"\"ME\", \"ZSELECT\", "
                + "\"ZGROUP\") VALUES (1, ?, 1, 'a\"b', 5, 1)",
            arguments: [layout.entity(named: "Order")?.entityNumber ?? 0])
        let predicate = ObjectGraph.Predicate.comparison(
            Comparison(.keyPath(PredicateKeyPath("na\"me")), .equal, .constant("a\"b")))
        let query = try compiler.select(
            entity: "Order", includesSubentities: true,
            predicate: .and([
                predicate, try Predicate(format: "#select == 5 AND group.#where == 'g'"),
            ]),
            sortDescriptors: [SortDescriptor("group.where")], offset: 0, limit: 0,
            columns: ["Z_PK", "ZNA\"ME"])
        #expect(query.sql.contains("\"ZNA\"\"ME\""))
        let rows = try db.fetchAll(sql: query.sql, arguments: query.statementArguments)
        #expect(rows.count == 1)
        #expect(rows.first?[1] == .text("a\"b"))
        let groups = try compiler.select(
            entity: "Group", includesSubentities: true,
            predicate: try Predicate(format: "ANY orders.#select > 4"), sortDescriptors: [],
            offset: 0, limit: 0, columns: ["Z_PK"])
        #expect(try db.fetchAll(sql: groups.sql, arguments: groups.statementArguments).count == 1)
    }

    @Test("what SQL cannot answer exactly is a typed error naming the fragment")
    func rejections() throws {
        let (compiler, _) = try Self.compiler()
        let function = try #require(
            Self.rejection(compiler, "Item", "FUNCTION(name, 'capitalizedString') == 'A'"))
        #expect(function.description.contains("FUNCTION(name, \"capitalizedString\")"))
        let toMany = try #require(Self.rejection(compiler, "Item", "tags.name == 'x'"))
        #expect(toMany.description.contains("ANY"))
        let ordering = try #require(Self.rejection(compiler, "Item", "name < 5"))
        #expect(ordering.description.contains("name < 5"))
        #expect(Self.rejection(compiler, "Item", "uuid < %@", UUID()) != nil)
        #expect(Self.rejection(compiler, "Item", "name == $NAME") != nil)
        #expect(Self.rejection(compiler, "Item", "power > 1") != nil)  // a Gadget-only key
        #expect(Self.rejection(compiler, "Item", "name MATCHES '('") != nil)
        #expect(Self.rejection(compiler, "Item", "name MATCHES label") != nil)
        #expect(Self.rejection(compiler, "Item", "sqrt:(count) == nil") != nil)
        #expect(Self.rejection(compiler, "Item", "tags.@distinctUnionOfObjects.name == 'x'") != nil)
        let temporary = ObjectID(entityName: "Team", storeIdentifier: "", key: .temporary(UUID()))
        #expect(Self.rejection(compiler, "Item", "team == %@", temporary) != nil)
        #expect(throws: SQLTranslationError.unknownEntity("Nope")) {
            try compiler.count(entity: "Nope", includesSubentities: true, predicate: nil)
        }
        #expect(throws: SQLTranslationError.self) {
            try Self.select(compiler, "Item", "TRUEPREDICATE", sort: [SortDescriptor("tags.name")])
        }
    }

    static func rejection(
        _ compiler: SQLQueryCompiler, _ entity: String, _ format: String,
        _ argument: any Sendable
    ) -> SQLTranslationError? {
        do {
            _ = try compiler.select(
                entity: entity, includesSubentities: true,
                predicate: Predicate(format: format, argument), sortDescriptors: [], offset: 0,
                limit: 0, columns: ["Z_PK"])
            return nil
        } catch let error as SQLTranslationError {
            return error
        } catch {
            return nil
        }
    }

    @Test("with NFC text, standard string sorts are plain byte order; the check finds non-NFC rows")
    func normalizedText() throws {
        let (_, data) = try Self.compiler()
        let db = try Database.inMemory()
        try SQLFunctions.register(on: db)
        try data.populate(db)
        let nfc = SQLQueryCompiler(layout: data.layout, model: data.model, textIsNFC: true)
        let query = try nfc.select(
            entity: "Tag", includesSubentities: true, predicate: nil,
            sortDescriptors: [SortDescriptor("name", ascending: false)], offset: 0, limit: 0,
            columns: ["Z_PK"])
        #expect(query.sql.hasSuffix("ORDER BY t0.\"ZNAME\" DESC NULLS FIRST, t0.\"Z_PK\""))
        // The item names include "Cafe\u{301}": not NFC. Tags and leagues may or may not.
        let check = try nfc.nonNFCTextCount(entity: "Gadget")
        let count = try db.fetchValue(Int.self, sql: check.sql, arguments: check.statementArguments)
        let expected = data.objects.filter { object in
            ["Gadget", "Widget"].contains(object.entity)
                && object.values.values.contains { value in
                    if case .string(let text) = value {
                        return !text.utf8.elementsEqual(
                            text.precomposedStringWithCanonicalMapping.utf8)
                    }
                    return false
                }
        }.count
        #expect(count == expected)
        #expect(expected > 0)
    }

    @Test("long IN lists of object IDs and values stay flat and run")
    func longLists() throws {
        let (compiler, data) = try Self.compiler()
        let db = try Database.inMemory()
        try SQLFunctions.register(on: db)
        try data.populate(db)
        let items = data.objects.filter { $0.entity == "Gadget" || $0.entity == "Widget" }
        // 1,500 IDs: the real ones, plus IDs of rows that do not exist and of other entities.
        var ids: [ObjectID] = items.map(\.objectID)
        for key in 1_000..<2_330 {
            ids.append(
                ObjectID(
                    entityName: key % 2 == 0 ? "Gadget" : "Tag", storeIdentifier: "STORE",
                    key: .permanent(Int64(key))))
        }
        let predicate = ObjectGraph.Predicate.comparison(
            Comparison(.evaluatedObject, .in, .aggregate(ids.map { .constant(.objectID($0)) })))
        let query = try compiler.count(
            entity: "Item", includesSubentities: true, predicate: predicate)
        #expect(!query.sql.contains(" OR (t0"))
        #expect(
            try db.fetchValue(Int.self, sql: query.sql, arguments: query.statementArguments)
                == items.count)
        // 1,100 OR-ed terms that are not a constant list: a balanced tree, within SQLite's
        // expression depth limit.
        let terms = (0..<1_100).map { index in
            ObjectGraph.Predicate.comparison(
                Comparison(
                    .keyPath(PredicateKeyPath("name")), .equal, .constant(.string("Ω\(index)")),
                    options: .caseInsensitive))
        }
        let wide = try compiler.count(
            entity: "Item", includesSubentities: true,
            predicate: .or(terms + [try Predicate(format: "name == nil")]))
        let nilNames = items.filter { $0.values["name"] == .null }.count
        #expect(
            try db.fetchValue(Int.self, sql: wide.sql, arguments: wide.statementArguments)
                == nilNames)
        let numbers = ObjectGraph.Predicate.comparison(
            Comparison(
                .keyPath(PredicateKeyPath("count")), .in,
                .aggregate((0..<2_000).map { .constant(.integer(Int64($0 - 1_000))) })))
        let counted = try compiler.count(
            entity: "Item", includesSubentities: true, predicate: numbers)
        let expected = items.filter { $0.values["count"].map { $0 != .null } ?? false }.count
        #expect(
            try db.fetchValue(Int.self, sql: counted.sql, arguments: counted.statementArguments)
                == expected)
    }

    @Test("fetches restrict Z_ENT; counts, sorts and object IDs follow the layout")
    func entitiesAndCounts() throws {
        let (compiler, data) = try Self.compiler()
        let db = try Database.inMemory()
        try SQLFunctions.register(on: db)
        try data.populate(db)
        let gadgets = data.objects.filter { $0.entity == "Gadget" }.count
        let items = data.objects.filter { $0.entity == "Gadget" || $0.entity == "Widget" }.count
        for (entity, subentities, expected) in [
            ("Gadget", true, gadgets), ("Item", true, items), ("Item", false, 0),
        ] {
            let query = try compiler.count(
                entity: entity, includesSubentities: subentities, predicate: nil)
            #expect(
                try db.fetchValue(Int.self, sql: query.sql, arguments: query.statementArguments)
                    == expected)
        }
        let first = try #require(data.objects.first { $0.entity == "Widget" })
        let byID = try compiler.select(
            entity: "Item", includesSubentities: true,
            predicate: try Predicate(format: "SELF == %@", first.objectID), sortDescriptors: [],
            offset: 0, limit: 0, columns: ["Z_PK"])
        let rows = try db.fetchAll(sql: byID.sql, arguments: byID.statementArguments)
        #expect(rows.map { $0[0] } == [.integer(first.primaryKey)])
        // The same key under another entity name is another object.
        let wrongEntity = ObjectID(
            entityName: "Gadget", storeIdentifier: "STORE", key: .permanent(first.primaryKey))
        let none = try compiler.select(
            entity: "Item", includesSubentities: true,
            predicate: try Predicate(format: "SELF == %@", wrongEntity), sortDescriptors: [],
            offset: 0, limit: 0, columns: ["Z_PK"])
        #expect(try db.fetchAll(sql: none.sql, arguments: none.statementArguments).isEmpty)
        // Nil sorts first in both directions; Z_PK breaks ties.
        for ascending in [true, false] {
            let sorted = try compiler.select(
                entity: "Item", includesSubentities: true, predicate: nil,
                sortDescriptors: [SortDescriptor("name", ascending: ascending)], offset: 0,
                limit: 0, columns: ["Z_PK", "ZNAME"])
            let names = try db.fetchAll(sql: sorted.sql, arguments: sorted.statementArguments)
                .map { $0[1] }
            let firstNonNil = names.firstIndex { $0 != .null } ?? names.count
            #expect(names[..<firstNonNil].allSatisfy { $0 == .null })
            #expect(names[firstNonNil...].allSatisfy { $0 != .null })
        }
    }
}
