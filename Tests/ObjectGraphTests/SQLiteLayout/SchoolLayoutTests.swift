import Foundation
import Testing

@testable import ObjectGraph

@Suite("SQLite layout of the School sample model")
struct SchoolLayoutTests {
    static func layout() throws -> StoreLayout {
        let url = TestSupport.models.appendingPathComponent("School.xcdatamodeld")
        return try StoreLayout(model: EntityModel(contentsOf: url))
    }

    @Test("entities are numbered depth-first, roots and siblings by name")
    func numbering() throws {
        let layout = try Self.layout()
        let numbered = layout.entities.map { "\($0.entityNumber) \($0.name) \($0.superNumber)" }
        #expect(
            numbered == [
                "1 Announcement 0", "2 Classroom 0", "3 Course 0", "4 Lesson 0", "5 Person 0",
                "6 Student 5", "7 Teacher 5",
            ])
        let person = try #require(layout.entity(named: "Person"))
        #expect(person.coveredEntityNumbers == [5, 6, 7])
        #expect(person.subentityNumbers == [6, 7])
        #expect(person.isAbstract)
        #expect(layout.entity(named: "Student")?.coveredEntityNumbers == [6])
        #expect(layout.entity(number: 7)?.name == "Teacher")
        #expect(layout.entity(number: 0) == nil)
        #expect(layout.entity(number: 8) == nil)
    }

    @Test("one table per inheritance tree holds the union of its columns")
    func inheritanceTable() throws {
        let layout = try Self.layout()
        #expect(
            layout.tables.map(\.name) == [
                "ZANNOUNCEMENT", "ZCLASSROOM", "ZCOURSE", "ZLESSON", "ZPERSON",
            ])
        let student = try #require(layout.entity(named: "Student"))
        let teacher = try #require(layout.entity(named: "Teacher"))
        #expect(student.tableName == "ZPERSON")
        #expect(teacher.tableName == "ZPERSON")
        #expect(student.rootName == "Person")
        // Inherited and own attributes.
        #expect(student.attributeColumns["name"]?.name == "ZNAME")
        #expect(student.attributeColumns["studentNumber"]?.name == "ZSTUDENTNUMBER")
        #expect(teacher.attributeColumns["studentNumber"] == nil)
        let table = try #require(layout.table(named: "ZPERSON"))
        #expect(table.entityNumbers == [5, 6, 7])
        #expect(Array(table.columns.prefix(3).map(\.name)) == ["Z_PK", "Z_ENT", "Z_OPT"])
        #expect(table.column(named: "ZSALARY")?.type == .decimal)
        #expect(table.column(named: "ZID")?.type == .blob)
        #expect(table.column(named: "ZWEBSITE")?.type == .varchar)
        #expect(table.column(named: "ZENROLLEDON")?.type == .timestamp)
        #expect(table.column(named: "ZISACTIVE")?.type == .integer)
    }

    @Test("an entity's columns are its own and inherited ones")
    func entityColumns() throws {
        let layout = try Self.layout()
        let student = try #require(layout.entity(named: "Student"))
        #expect(
            layout.columns(of: student).map(\.name) == [
                "Z_PK", "Z_ENT", "Z_OPT", "ZISACTIVE", "ZSTUDENTNUMBER", "ZBIRTHDAY",
                "ZENROLLEDON", "ZGRADEPOINTAVERAGE", "ZEMAIL", "ZNAME", "ZWEBSITE", "ZID",
                "ZPHOTO",
            ])
        let person = try #require(layout.entity(named: "Person"))
        #expect(!layout.columns(of: person).contains { $0.name == "ZSALARY" })
        let lesson = try #require(layout.entity(named: "Lesson"))
        #expect(layout.columns(of: lesson).map(\.name).contains("Z_FOK_COURSE"))
    }

    @Test("columns are grouped by type: integers, numbers and dates, text, bytes")
    func columnOrder() throws {
        let table = try #require(try Self.layout().table(named: "ZCOURSE"))
        #expect(
            table.columns.map(\.name) == [
                "Z_PK", "Z_ENT", "Z_OPT", "ZCREDITS", "ZENROLLMENTLIMIT", "ZCLASSROOM",
                "ZTEACHER", "ZFEE", "ZRATING", "ZCODE", "ZTITLE", "ZSYLLABUS",
            ])
        #expect(table.column(named: "ZFEE")?.type == .decimal)
        #expect(table.column(named: "ZRATING")?.type == .float)
        #expect(
            table.column(named: "ZTEACHER")?.role
                == .foreignKey(entity: "Course", relationship: "teacher"))
    }

    @Test("to-one, to-many, ordered to-many and many-to-many relationships")
    func relationships() throws {
        let layout = try Self.layout()
        let course = try #require(layout.entity(named: "Course"))
        #expect(
            course.relationships["teacher"]
                == .foreignKey(table: "ZCOURSE", column: "ZTEACHER", entityColumn: nil))
        #expect(
            course.relationships["lessons"]
                == .inverseForeignKey(
                    table: "ZLESSON", column: "ZCOURSE", entityColumn: nil,
                    orderColumn: "Z_FOK_COURSE"))
        #expect(
            layout.entity(named: "Classroom")?.relationships["courses"]
                == .inverseForeignKey(
                    table: "ZCOURSE", column: "ZCLASSROOM", entityColumn: nil, orderColumn: nil))
        // The ordered to-many's order key sits right after the inverse's foreign key.
        let lesson = try #require(layout.table(named: "ZLESSON"))
        let names = lesson.columns.map(\.name)
        let fk = try #require(names.firstIndex(of: "ZCOURSE"))
        #expect(names[fk + 1] == "Z_FOK_COURSE")
        // Course(3).students ↔ Student(6).courses: named by the lower number's side.
        #expect(
            course.relationships["students"]
                == .joinTable(
                    table: "Z_3STUDENTS", ownerColumn: "Z_3COURSES",
                    destinationColumn: "Z_6STUDENTS", orderColumn: nil))
        #expect(
            layout.entity(named: "Student")?.relationships["courses"]
                == .joinTable(
                    table: "Z_3STUDENTS", ownerColumn: "Z_6STUDENTS",
                    destinationColumn: "Z_3COURSES", orderColumn: nil))
        let join = try #require(layout.joinTable(named: "Z_3STUDENTS"))
        #expect(join.columns.map(\.name) == ["Z_3COURSES", "Z_6STUDENTS"])
        #expect(join.indexName == "Z_3STUDENTS_Z_6STUDENTS_INDEX")
        #expect(join.entity == "Course")
        #expect(join.destinationEntity == "Student")
    }

    @Test("indexes: foreign keys, Z_ENT, fetch indexes, uniqueness constraints, join tables")
    func indexes() throws {
        let layout = try Self.layout()
        let statements = Set(layout.indexes.map(layout.createStatement(for:)))
        // Core Data's text exactly: bare identifiers.
        let expected = [
            "CREATE INDEX ZCOURSE_ZCLASSROOM_INDEX ON ZCOURSE (ZCLASSROOM)",
            "CREATE INDEX ZCOURSE_ZTEACHER_INDEX ON ZCOURSE (ZTEACHER)",
            "CREATE INDEX ZLESSON_ZCOURSE_INDEX ON ZLESSON (ZCOURSE)",
            "CREATE INDEX ZPERSON_Z_ENT_INDEX ON ZPERSON (Z_ENT)",
            "CREATE INDEX Z_Course_byCodeIndex ON ZCOURSE (ZCODE COLLATE BINARY ASC)",
            "CREATE UNIQUE INDEX Z_Course_UNIQUE_code ON ZCOURSE (ZCODE COLLATE BINARY ASC)",
            "CREATE INDEX Z_3STUDENTS_Z_6STUDENTS_INDEX ON Z_3STUDENTS (Z_6STUDENTS, Z_3COURSES)",
        ]
        for statement in expected {
            #expect(statements.contains(statement), "\(statement)")
        }
        // `code` is both indexed and a fetch index named byCodeIndex: one index, not two.
        #expect(layout.indexes.filter { $0.name.hasPrefix("Z_Course_byCode") }.count == 1)
        #expect(
            layout.indexes.filter { $0.isUnique }.allSatisfy { $0.purpose == .uniquenessConstraint }
        )
    }

    @Test("the DDL lists entity and join tables, then indexes, then bookkeeping tables")
    func statementOrder() throws {
        let layout = try Self.layout()
        let statements = layout.createStatements()
        #expect(
            statements.first?.hasPrefix(
                "CREATE TABLE ZANNOUNCEMENT ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER"
            ) == true)
        #expect(statements.contains(StoreLayout.primaryKeyTableSQL))
        #expect(statements.contains(StoreLayout.metadataTableSQL))
        #expect(statements.contains(StoreLayout.modelCacheTableSQL))
        #expect(
            !layout.createStatements(includingModelCache: false)
                .contains(StoreLayout.modelCacheTableSQL))
        #expect(
            statements.count
                == layout.tables.count + layout.joinTables.count + 3 + layout.indexes.count)
        // As Core Data: each entity's table, then its join tables; the indexes; bookkeeping.
        let firstIndex = try #require(statements.firstIndex { $0.contains(" INDEX ") })
        #expect(statements[..<firstIndex].allSatisfy { $0.hasPrefix("CREATE TABLE Z") })
        #expect(
            Array(statements.suffix(3)) == [
                StoreLayout.primaryKeyTableSQL, StoreLayout.metadataTableSQL,
                StoreLayout.modelCacheTableSQL,
            ])
        #expect(statements.dropLast(3)[firstIndex...].allSatisfy { $0.contains(" INDEX ") })
        let tables = statements[..<firstIndex].map { $0.split(separator: " ")[2] }
        #expect(
            tables.firstIndex(of: "Z_3STUDENTS") == tables.firstIndex(of: "ZCOURSE").map { $0 + 1 })
    }
}
