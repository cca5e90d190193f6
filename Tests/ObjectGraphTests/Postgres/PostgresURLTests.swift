import Foundation
import PostgresClient
import Testing

@Suite("PostgreSQL URLs")
struct PostgresURLTests {
    @Test("a TCP URL gives user, host, port, database and schema")
    func tcpForm() throws {
        let url = try PostgresURL(string: "postgresql://app@db.example.com:5433/shop?schema=orders")
        #expect(url.user == "app")
        #expect(url.host == "db.example.com")
        #expect(url.port == 5433)
        #expect(url.database == "shop")
        #expect(url.schema == "orders")
        #expect(!url.usesUnixSocket)
        #expect(!url.hasPassword)
        #expect(url.description == "postgresql://app@db.example.com:5433/shop?schema=orders")
    }

    @Test("the Unix-socket form takes the socket folder from host=")
    func socketForm() throws {
        let url = try PostgresURL(string: "postgresql:///shop?host=/run/postgresql&sslmode=disable")
        #expect(url.host == "/run/postgresql")
        #expect(url.usesUnixSocket)
        #expect(url.database == "shop")
        #expect(url.parameters == ["sslmode": "disable"])
        #expect(url.description == "postgresql:///shop?host=%2Frun%2Fpostgresql&sslmode=disable")
        #expect(try PostgresURL(string: url.description).host == "/run/postgresql")
    }

    @Test("a password is kept but never printed, dumped or shown in errors")
    func passwordRedacted() throws {
        let url = try PostgresURL(string: "postgres://app:s3cr%40t@db/shop?schema=a")
        #expect(url.hasPassword)
        #expect(url.description == "postgresql://app:***@db/shop?schema=a")
        #expect("\(url)".contains("s3cr") == false)
        #expect(String(reflecting: url).contains("s3cr") == false)
        var dumped = ""
        dump(url, to: &dumped)
        #expect(!dumped.contains("s3cr"))
        #expect(url.redactedURL?.absoluteString.contains("s3cr") == false)
        let query = try PostgresURL(string: "postgresql://db/shop?password=hunter2")
        #expect(query.hasPassword)
        #expect(!query.description.contains("hunter2"))
        #expect(throws: PostgresError.self) {
            try PostgresURL(string: "postgresql://app:hunter2@db/shop?bogus=1")
        }
        do {
            _ = try PostgresURL(string: "postgresql://app:hunter2@db/shop?bogus=1")
        } catch {
            #expect(!"\(error)".contains("hunter2"))
            #expect("\(error)".contains("bogus"))
        }
        #expect(
            PostgresURL.redacted("postgresql://app:secret@db/shop")
                == "postgresql://app:***@db/shop")
    }

    @Test("other schemes, bad ports and unknown parameters are refused")
    func refusals() {
        #expect(throws: PostgresError.self) { try PostgresURL(string: "mysql://db/shop") }
        #expect(throws: PostgresError.self) {
            try PostgresURL(string: "postgresql:///shop?port=99999")
        }
        #expect(throws: PostgresError.self) {
            try PostgresURL(string: "postgresql:///shop?sslmdoe=require")
        }
    }

    @Test("identifiers are quoted with embedded quotes doubled")
    func quoting() {
        #expect(PostgresIdentifier.quoted("ZPERSON") == "\"ZPERSON\"")
        #expect(PostgresIdentifier.quoted("say \"hi\"") == "\"say \"\"hi\"\"\"")
        #expect(PostgresIdentifier.quoted("\"") == "\"\"\"\"")
        #expect(PostgresIdentifier.qualified("app", "Z_PK") == "\"app\".\"Z_PK\"")
    }
}
