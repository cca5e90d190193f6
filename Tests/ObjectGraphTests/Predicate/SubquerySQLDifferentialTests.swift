import Foundation
import Testing

@testable import ObjectGraph

/// `SUBQUERY` in SQL (issue 20): over to-many relationships and paths through to-ones, over a
/// to-many ending on a to-one (elements may be nil), over the values of an attribute, over a
/// constant collection; nested, with `%K` inside, comparing subquery variables, with
/// `ANY`/`ALL`/`NONE` inside, counted, aggregated and read by `ANY`, `IN` and `CONTAINS`.
/// Each compiles to SQL with the evaluator's answer, or (the forms marked `inSQL: false`) is
/// refused and answered in memory by the evaluator.
@Suite("SQL query compiler: SUBQUERY forms agree with the evaluator")
struct SubquerySQLDifferentialTests {
    typealias Form = KeyPathFormsDifferentialTests.Form

    static func form(
        _ entity: String, _ format: String, _ arguments: [String] = [], sql: Bool = true
    )
        -> Form
    {
        Form(entity: entity, format: format, arguments: arguments, inSQL: sql)
    }

    static let forms: [Form] = [
        // Over to-many relationships, through to-ones, flattened.
        form("Item", "SUBQUERY(children, $c, $c.count > 0).@count > 0"),
        form("Item", "SUBQUERY(team.members, $m, $m.flag == YES).@count > 1"),
        form("Item", "SUBQUERY(children.tags, $t, $t.score > 0.5).@count >= 2"),
        form(
            "Team", "SUBQUERY(league.teams, $t, $t.rank > 1 AND $t.league.name != nil).@count > 0"),
        // Over a to-many ending on a to-one: nil elements count and compare as nil.
        form("Item", "SUBQUERY(children.team, $t, $t == nil).@count > 0"),
        form("Item", "SUBQUERY(children.team, $t, $t.name BEGINSWITH[c] 'a').@count > 0"),
        form("Item", "SUBQUERY(children.team, $t, name == nil OR rank > 1).@count > 0"),
        form("Item", "SUBQUERY(children.team, $t, $t.members.@count > 2).@count > 0"),
        form("Item", "SUBQUERY(children.parent, $p, $p == SELF).@count == 0"),
        form("Tag", "SUBQUERY(items.team, $t, ANY $t.members.count > 3).@count > 0"),
        // Over the values of an attribute (nil included) and keys of strings.
        form("Item", "SUBQUERY(tags.name, $n, $n BEGINSWITH 'a').@count > 0"),
        form("Item", "SUBQUERY(children.name, $n, $n == nil).@count > 0"),
        form("Item", "SUBQUERY(children.team.name, $n, $n != nil).@count > 1"),
        form("Item", "SUBQUERY(tags.name, $n, $n.length > 3 AND SELF CONTAINS[c] 'a').@count > 0"),
        form("Item", "SUBQUERY(tags.name.length, $l, $l > 4).@count > 0"),
        form("Item", "SUBQUERY(tags.score, $s, $s BETWEEN {0.2, 0.8})[SIZE] > 0"),
        form("Team", "SUBQUERY(members.when, $w, $w != nil).@max > members.@min.when"),
        // Format specifiers inside.
        form("Item", "SUBQUERY(%K.%K, $n, $n BEGINSWITH %@).@count > 0", ["tags", "name", "a"]),
        form("Item", "SUBQUERY(%K, $c, $c.%K.%K != nil).@count > 0", ["children", "team", "name"]),
        // Nested, comparing the variables of both.
        form(
            "Item",
            "SUBQUERY(children, $c, SUBQUERY($c.children, $d, $d.team == $c.team AND $d != $c).@count > 0).@count > 0"
        ),
        form(
            "Item",
            "SUBQUERY(children, $c, SUBQUERY($c.tags.name, $n, $n ==[c] $c.name OR $n < $c.name).@count > 0).@count > 0"
        ),
        form(
            "Team",
            "SUBQUERY(members, $m, SUBQUERY($m.children.team, $t, $t == $m.team).@count > 0).@count > 0"
        ),
        form(
            "Item",
            "SUBQUERY(children, $c, SUBQUERY({1, 2, 3}, $v, $v < $c.count).@count >= 2).@count > 0"),
        form(
            "Item", "SUBQUERY(children, $c, $c.name != $c.parent.name OR $c.buddy == $c).@count > 0"
        ),
        // ANY / ALL / NONE inside.
        form(
            "Item",
            "SUBQUERY(children, $c, ANY $c.tags.score > 0.5 AND NONE $c.tags.name == nil).@count > 0"
        ),
        form("Team", "SUBQUERY(members, $m, ALL $m.tags.score >= 0.3).@count > 2"),
        // Read as a collection: ANY / ALL / NONE, IN, CONTAINS.
        form("Item", "ANY SUBQUERY(children, $c, $c.flag == YES).name BEGINSWITH 'a'"),
        form("Item", "ANY SUBQUERY(children, $c, $c.count > 0).team.name != nil"),
        form("Item", "ALL SUBQUERY(tags.score, $s, $s != nil) > 0.3"),
        form("Item", "NOT (ANY SUBQUERY(tags.name, $n, $n.length > 2) ENDSWITH 'a')"),
        form("Item", "team IN SUBQUERY(children.team, $t, $t != nil)"),
        form("Item", "name IN SUBQUERY(team.members.name, $n, $n != nil) AND count > 3"),
        form("Team", "SUBQUERY(members, $m, $m.flag == YES) CONTAINS SELF OR rank > 2"),
        // Aggregated.
        form("Item", "SUBQUERY(children, $c, $c.flag == YES).@sum.count > 2"),
        form("Item", "SUBQUERY(tags, $t, $t.score > 0).@avg.score > 0.5"),
        form("Item", "SUBQUERY(children.team, $t, $t != nil).@max.rank > 1"),
        form("Item", "SUBQUERY(tags.name, $n, $n != nil).@min BEGINSWITH 'a'"),
        form("Item", "SUBQUERY(tags.score, $s, $s > 0.2).@sum > 1"),
        form("Item", "SUBQUERY(tags.name, $n, $n != nil).@max.length > 4"),
        // Refused by the compiler, evaluated in memory.
        form("Item", "SUBQUERY(tags.name, $n, $n.intValue == 0).@count > 0", sql: false),
        form("Item", "SUBQUERY(children.team.members, $m, $m == nil).@count > 0", sql: false),
        form("Item", "SUBQUERY(children, $c, $c.count > 0)[FIRST].name != nil", sql: false),
        form("Item", "ANY SUBQUERY(children, $c, $c.count > 0).tags.score > 0.5", sql: false),
    ]

    @Test("each SUBQUERY form compiles with the evaluator's answer or is refused", arguments: forms)
    func agreesOrFallsBack(form: Form) throws {
        // Canonical printing is a fixed point: the text parses back to the same tree.
        let predicate = try form.predicate()
        let reparsed = try ObjectGraph.Predicate(format: predicate.description)
        #expect(reparsed == predicate, "\(form) printed \(predicate)")
        #expect(reparsed.description == predicate.description, "\(form)")
        try KeyPathFormsDifferentialTests.check(form)
    }

    @Test("through a context on the SQLite store: SQL when translatable, the same objects")
    func throughTheStore() throws {
        let folder = try TestSupport.makeTemporaryFolder()
        defer { TestSupport.removeTemporaryFolder(folder) }
        let data = try DifferentialDataSet(seed: 20_261_130)
        let coordinator = try StoreDifferentialTests.openStore(data, in: folder)
        try KeyPathFormsDifferentialTests.checkThroughStore(Self.forms, coordinator, data)
    }

    @Test("a substituted collection variable is counted term by term in SQL")
    func substitutedCollection() throws {
        let harness = try DifferentialHarness(seed: 20_261_129)
        let template = try ObjectGraph.Predicate(
            format:
                "SUBQUERY(children, $c, SUBQUERY($LIMITS, $v, $v < $c.count).@count > 1).@count > 0"
        )
        let predicate = template.withSubstitutionVariables(expressions: [
            "LIMITS": .aggregate([.constant(.integer(1)), .constant(.integer(3)), .constant(.null)])
        ])
        let fetch = DifferentialPredicateGenerator.Fetch(
            entity: "Item", includesSubentities: true, predicate: predicate, sort: [], offset: 0,
            limit: 0)
        guard case .identical(let count) = harness.run(fetch) else {
            Issue.record("\(predicate): \(harness.run(fetch))")
            return
        }
        #expect(count > 0)
    }

    @Test("2,000 generated SUBQUERY fetches agree with the evaluator, few refused")
    func generated() throws {
        let harness = try DifferentialHarness(seed: 20_261_129)
        var generator = DifferentialPredicateGenerator(seed: 28, data: harness.data)
        var identical = 0
        var nonEmpty = 0
        var rejected: [String: Int] = [:]
        var mismatches: [String] = []
        let total = 2_000
        for _ in 0..<total {
            let entity = generator.random.pick(["Item", "Item", "Gadget", "Team", "Tag"])
            let fetch = DifferentialPredicateGenerator.Fetch(
                entity: entity, includesSubentities: true,
                predicate: generator.subquery(entity, depth: 2), sort: [], offset: 0, limit: 0)
            switch harness.run(fetch) {
            case .identical(let count):
                identical += 1
                if count > 0 { nonEmpty += 1 }
            case .rejected(let error):
                rejected["\(error)".prefix(160).description, default: 0] += 1
            case .bothFailed:
                break
            case .mismatch(let text):
                mismatches.append(text)
            }
        }
        let rejectedCount = rejected.values.reduce(0, +)
        print(
            "SUBQUERY differential: \(total) fetches, \(identical) identical (\(nonEmpty) "
                + "non-empty), \(rejectedCount) refused, \(mismatches.count) mismatches")
        for (reason, count) in rejected.sorted(by: { $0.value > $1.value }).prefix(10) {
            print("  refused \(count)×: \(reason)")
        }
        for mismatch in mismatches.prefix(10) { print("MISMATCH \(mismatch)") }
        #expect(mismatches.isEmpty)
        #expect(identical >= total * 8 / 10)
        #expect(nonEmpty >= total / 4)
        #expect(rejectedCount <= total / 20)
    }
}
