import Foundation
import SQLiteDatabase
import Testing

private struct NotANumber: Error, CustomStringConvertible {
    let text: String
    var description: String { "not a number: \(text)" }
}

/// Notes its release, to check that SQLite frees what a function or collation captures.
private final class ReleaseTracker: Sendable {
    let released: Locked<Bool>
    init(_ released: Locked<Bool>) { self.released = released }
    deinit { released.withValue { $0 = true } }
}

@Suite("Swift functions and collations")
struct FunctionTests {
    @Test("a deterministic function with a fixed argument count")
    func reverse() throws {
        try withDatabase { db, _ throws in
            try db.createFunction(name: "reverse", argumentCount: 1, deterministic: true) { args in
                guard case .text(let text) = args[0] else { return .null }
                return .text(String(text.reversed()))
            }
            #expect(try db.fetchValue(String.self, sql: "SELECT reverse('abc')") == "cba")
            #expect(try db.fetchValue(String.self, sql: "SELECT reverse(NULL)") == nil)
            // Deterministic functions may be used in indexes.
            try db.execute(
                sql: "CREATE TABLE t (v TEXT); CREATE INDEX t_reversed ON t (reverse(v))")
            try db.execute(sql: "INSERT INTO t VALUES (?)", arguments: ["olleh"])
            let found = try db.fetchValue(
                String.self, sql: "SELECT v FROM t WHERE reverse(v) = ?", arguments: ["hello"])
            #expect(found == "olleh")
            let wrongCount = thrownError { _ = try db.fetchAll(sql: "SELECT reverse('a', 'b')") }
            #expect((wrongCount as? DatabaseError)?.resultCode == .error)
        }
    }

    @Test("a variadic function sees every argument type and returns every type")
    func variadic() throws {
        try withDatabase { db, _ throws in
            try db.createFunction(name: "describe") { args in
                .text(args.map(\.storageClass).joined(separator: ","))
            }
            let described = try db.fetchValue(
                String.self, sql: "SELECT describe(NULL, 1, 1.5, 'a', x'00')")
            #expect(described == "NULL,INTEGER,REAL,TEXT,BLOB")
            #expect(try db.fetchValue(String.self, sql: "SELECT describe()") == "")

            try db.createFunction(name: "echo", argumentCount: 1) { $0[0] }
            let row = try #require(
                try db.fetchOne(
                    sql: "SELECT echo(NULL), echo(7), echo(2.5), echo(''), echo(x'')"))
            #expect(row.values == [.null, .integer(7), .real(2.5), .text(""), .blob(Data())])
        }
    }

    @Test("a Swift error thrown by a function surfaces as a DatabaseError with its message")
    func swiftErrorSurfaces() throws {
        try withDatabase { db, _ throws in
            try db.createFunction(name: "parse", argumentCount: 1) { args in
                guard case .text(let text) = args[0], let number = Int64(text) else {
                    throw NotANumber(text: args[0].description)
                }
                return .integer(number)
            }
            #expect(try db.fetchValue(Int.self, sql: "SELECT parse('12')") == 12)
            let sql = "SELECT parse(?)"
            let error = try #require(
                thrownError { _ = try db.fetchAll(sql: sql, arguments: ["x"]) }
                    as? DatabaseError)
            #expect(error.resultCode == .error)
            #expect(error.message == "not a number: 'x'")
            #expect(error.sql == sql)

            try db.createFunction(name: "refuse", argumentCount: 0) { _ in
                throw DatabaseError(resultCode: .constraint, message: "refused")
            }
            let refused = thrownError { _ = try db.fetchAll(sql: "SELECT refuse()") }
            #expect((refused as? DatabaseError)?.resultCode == .constraint)
            #expect((refused as? DatabaseError)?.message == "refused")
        }
    }

    @Test("function boxes are released when replaced, removed, or the database closes")
    func functionLifetime() throws {
        let db = try Database.inMemory()
        let firstReleased = Locked(false)
        let secondReleased = Locked(false)
        do {
            let first = ReleaseTracker(firstReleased)
            try db.createFunction(name: "f", argumentCount: 0) { _ in
                _ = first
                return .integer(1)
            }
        }
        #expect(try db.fetchValue(Int.self, sql: "SELECT f()") == 1)
        #expect(firstReleased.withValue { $0 } == false)
        do {
            let second = ReleaseTracker(secondReleased)
            try db.createFunction(name: "f", argumentCount: 0) { _ in
                _ = second
                return .integer(2)
            }
        }
        #expect(firstReleased.withValue { $0 } == true)
        #expect(try db.fetchValue(Int.self, sql: "SELECT f()") == 2)
        try db.close()
        #expect(secondReleased.withValue { $0 } == true)

        let other = try Database.inMemory()
        let removedReleased = Locked(false)
        do {
            let tracker = ReleaseTracker(removedReleased)
            try other.createFunction(name: "g") { _ in
                _ = tracker
                return .null
            }
        }
        try other.removeFunction(name: "g")
        #expect(removedReleased.withValue { $0 } == true)
        #expect(throws: DatabaseError.self) { try other.fetchAll(sql: "SELECT g()") }
    }

    @Test("a collation orders and compares with a Swift function, and is released on close")
    func collation() throws {
        let released = Locked(false)
        try withDatabase { db, _ throws in
            do {
                let tracker = ReleaseTracker(released)
                // Longest first, then alphabetical: a total order.
                try db.createCollation(name: "by length") { lhs, rhs in
                    _ = tracker
                    if lhs.count != rhs.count {
                        return lhs.count > rhs.count ? .orderedAscending : .orderedDescending
                    }
                    return lhs < rhs
                        ? .orderedAscending : (lhs == rhs ? .orderedSame : .orderedDescending)
                }
            }
            try db.execute(
                sql: "CREATE TABLE t (v TEXT); INSERT INTO t VALUES ('bb'), ('a'), ('ccc'), ('ab')")
            let collation = quoteIdentifier("by length")
            let ordered = try db.fetchAll(sql: "SELECT v FROM t ORDER BY v COLLATE " + collation)
                .map { try $0.decode(String.self, at: 0) }
            #expect(ordered == ["ccc", "ab", "bb", "a"])
            let same = try db.fetchValue(
                Bool.self, sql: "SELECT 'é' = 'é' COLLATE " + collation)
            #expect(same == true)
            #expect(released.withValue { $0 } == false)
        }
        #expect(released.withValue { $0 } == true)
    }
}
