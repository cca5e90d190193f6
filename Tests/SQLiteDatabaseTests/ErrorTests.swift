import Foundation
import SQLiteDatabase
import Testing

@Suite("Errors and identifier quoting")
struct ErrorTests {
    @Test("a syntax error carries the code, SQLite's message and the SQL")
    func syntaxError() throws {
        try withDatabase { db, _ throws in
            let sql = "SELEKT 1"
            let error = try #require(thrownError { try db.execute(sql: sql) } as? DatabaseError)
            #expect(error.resultCode == .error)
            #expect(error.message.contains("syntax error"))
            #expect(error.sql == sql)
            #expect(error.description.contains("SQLITE_ERROR (1)"))
            #expect(error.description.contains(sql))
            #expect(error.localizedDescription == error.description)

            let missing = try #require(
                thrownError { _ = try db.makeStatement(sql: "SELECT * FROM nowhere") }
                    as? DatabaseError)
            #expect(missing.message == "no such table: nowhere")
        }
    }

    @Test("a constraint error has primary and extended codes, matched with ~=")
    func constraintCodes() throws {
        try withDatabase { db, _ throws in
            try db.execute(sql: "CREATE TABLE user (email TEXT UNIQUE NOT NULL)")
            try db.execute(sql: "INSERT INTO user VALUES (?)", arguments: ["a@example.com"])
            let insert = "INSERT INTO user VALUES (?)"
            let error = try #require(
                thrownError { try db.execute(sql: insert, arguments: ["a@example.com"]) }
                    as? DatabaseError)
            #expect(error.resultCode == .constraint)
            #expect(error.extendedResultCode == .constraintUnique)
            #expect(error.extendedResultCode.name == "SQLITE_CONSTRAINT_UNIQUE")
            #expect(error.message == "UNIQUE constraint failed: user.email")
            #expect(error.sql == insert)

            var matched = ""
            switch error.extendedResultCode {
            case .constraintNotNull: matched = "not null"
            case .constraint: matched = "constraint"
            default: matched = "other"
            }
            #expect(matched == "constraint")
            #expect(ResultCode.constraintUnique ~= error.extendedResultCode)
            #expect(!(ResultCode.constraintNotNull ~= error.extendedResultCode))
            #expect(!(ResultCode.busy ~= error.extendedResultCode))

            var caught = false
            do {
                try db.execute(sql: "INSERT INTO user VALUES (NULL)")
            } catch ResultCode.constraint {
                caught = true
            }
            #expect(caught)
        }
    }

    @Test("arguments are kept but hidden from description; expandedDescription shows them")
    func argumentsHidden() throws {
        try withDatabase { db, _ throws in
            try db.execute(sql: "CREATE TABLE secret (password TEXT CHECK (length(password) > 8))")
            let error = try #require(
                thrownError {
                    try db.execute(
                        sql: "INSERT INTO secret (password) VALUES (:password)",
                        arguments: ["password": "hunter2"])
                } as? DatabaseError)
            #expect(error.extendedResultCode == .constraintCheck)
            #expect(error.arguments == ["password": "hunter2"])
            #expect(!error.description.contains("hunter2"))
            #expect(error.expandedDescription.contains("hunter2"))
            #expect(error.expandedDescription.hasPrefix(error.description))
        }
    }

    @Test("result codes have names and explanations")
    func resultCodeNames() {
        #expect(ResultCode.busy.name == "SQLITE_BUSY")
        #expect(ResultCode.busy.description == "SQLITE_BUSY (5)")
        #expect(ResultCode.busy.explanation == "database is locked")
        #expect(ResultCode.busySnapshot.primaryResultCode == .busy)
        #expect(ResultCode.busySnapshot.isPrimary == false)
        #expect(ResultCode(rawValue: 19 | (99 << 8)).name == "SQLITE_CONSTRAINT_25363")
        let plain = DatabaseError(resultCode: .misuse)
        #expect(plain.message == ResultCode.misuse.explanation)
        #expect(plain.description == "SQLITE_MISUSE (21): \(ResultCode.misuse.explanation)")
    }

    @Test("quoteIdentifier wraps in double quotes and doubles embedded ones")
    func quoting() {
        #expect(quoteIdentifier("name") == "\"name\"")
        #expect(quoteIdentifier("a\"b") == "\"a\"\"b\"")
        #expect(quoteIdentifier("\"") == "\"\"\"\"")
        #expect(quoteIdentifier("") == "\"\"")
        #expect(quoteIdentifier("é 🚀") == "\"é 🚀\"")
    }

    @Test("quoted keywords and names with quotes work as tables and columns")
    func quotedIdentifiersInSQL() throws {
        try withDatabase { db, _ throws in
            let names = ["Order", "group", "select", "we\"ird", "\"", "x\"; DROP TABLE t; --"]
            for table in names {
                let column = table + "_col"
                try db.execute(
                    sql: "CREATE TABLE " + quoteIdentifier(table) + " (" + quoteIdentifier(column)
                        + " TEXT)")
                try db.execute(
                    sql: "INSERT INTO " + quoteIdentifier(table) + " (" + quoteIdentifier(column)
                        + ") VALUES (?)", arguments: [table])
                let row = try #require(
                    try db.fetchOne(sql: "SELECT * FROM " + quoteIdentifier(table)))
                #expect(row.columnNames == [column])
                #expect(try row.decode(String.self, named: column) == table)
            }
            let tables = try db.fetchAll(sql: "SELECT name FROM sqlite_master ORDER BY name")
                .map { try $0.decode(String.self, at: 0) }
            #expect(Set(tables) == Set(names))
        }
    }
}
