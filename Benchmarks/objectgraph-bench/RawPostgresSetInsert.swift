import Foundation

/// The raw side's inserts as ObjectGraph's PostgreSQL store writes a save's inserted rows
/// (`PostgresStore+SetInsert.swift`): an entity with at least ``minimum`` rows in one save as
/// `INSERT … SELECT … FROM unnest(…)` of one array per column, up to ``chunk`` rows per
/// statement, columns in the store's order; fewer rows a statement each.
enum RawPostgresSetInsert {
    /// The fewest rows inserted set-based (the store's `setInsertMinimum`).
    static let minimum = 4
    /// The most rows per statement (the store's `batchInsertChunk`).
    static let chunk = 10_000

    /// A person row: its key, its team's key, its values.
    typealias Person = (key: Int64, team: Int64, values: PersonValues)

    /// Inserts `people` (prepared statements named from `name`).
    static func people(_ people: [Person], name: String, _ db: RawPostgres) throws {
        guard people.count >= minimum else {
            for person in people {
                let values = person.values
                try db.run(
                    name + "_one",
                    "INSERT INTO \"ZPERSON\" (\"Z_OPT\", \"Z_PK\", \"Z_ENT\", \"ZID\", \"ZNAME\","
                        + " \"ZAGE\", \"ZEMAIL\", \"ZSCORE\", \"ZCREATED\", \"ZTEAM\") VALUES (1,"
                        + " $1, $2, $3, $4, $5, $6, $7, $8, $9)",
                    [
                        String(person.key), "1", String(values.id), values.name,
                        String(values.age), values.email, "\(values.score)", "\(values.created)",
                        String(person.team),
                    ]
                ).clear()
            }
            return
        }
        for start in stride(from: 0, to: people.count, by: chunk) {
            let part = people[start..<min(start + chunk, people.count)]
            let arrays = [
                part.map { String($0.key) }, part.map { String($0.values.id) },
                part.map { quoted($0.values.name) }, part.map { String($0.values.age) },
                part.map { quoted($0.values.email) }, part.map { "\($0.values.score)" },
                part.map { "\($0.values.created)" }, part.map { String($0.team) },
            ].map { "{" + $0.joined(separator: ",") + "}" }
            try db.run(
                name,
                "INSERT INTO \"ZPERSON\" (\"Z_PK\", \"Z_ENT\", \"Z_OPT\", \"ZID\", \"ZNAME\","
                    + " \"ZAGE\", \"ZEMAIL\", \"ZSCORE\", \"ZCREATED\", \"ZTEAM\") SELECT u.og_key,"
                    + " $1, 1, u.c0, u.c1, u.c2, u.c3, u.c4, u.c5, u.c6 FROM unnest($2::bigint[],"
                    + " $3::bigint[], $4::text[], $5::integer[], $6::text[],"
                    + " $7::double precision[], $8::double precision[], $9::bigint[]) AS u(og_key,"
                    + " c0, c1, c2, c3, c4, c5, c6)", ["1"] + arrays
            ).clear()
        }
    }

    /// Inserts teams `keys[i]` named `names[i]` (prepared statements named from `name`).
    static func teams(keys: [Int64], names: [String], name: String, _ db: RawPostgres) throws {
        guard keys.count >= minimum else {
            for (key, teamName) in zip(keys, names) {
                try db.run(
                    name + "_one",
                    "INSERT INTO \"ZTEAM\" (\"Z_OPT\", \"Z_PK\", \"Z_ENT\", \"ZNAME\")"
                        + " VALUES (1, $1, $2, $3)", [String(key), "2", teamName]
                ).clear()
            }
            return
        }
        for start in stride(from: 0, to: keys.count, by: chunk) {
            let end = min(start + chunk, keys.count)
            try db.run(
                name,
                "INSERT INTO \"ZTEAM\" (\"Z_PK\", \"Z_ENT\", \"Z_OPT\", \"ZNAME\") SELECT u.og_key,"
                    + " $1, 1, u.c0 FROM unnest($2::bigint[], $3::text[]) AS u(og_key, c0)",
                [
                    "2", "{" + keys[start..<end].map(String.init).joined(separator: ",") + "}",
                    "{" + names[start..<end].map(quoted).joined(separator: ",") + "}",
                ]
            ).clear()
        }
    }

    /// `text` as a double-quoted array element.
    static func quoted(_ text: String) -> String {
        guard text.utf8.contains(where: { $0 == UInt8(ascii: "\\") || $0 == UInt8(ascii: "\"") })
        else { return "\"" + text + "\"" }
        return "\""
            + text.replacingOccurrences(of: "\\", with: "\\\\")
            .replacingOccurrences(of: "\"", with: "\\\"") + "\""
    }
}
