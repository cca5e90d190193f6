import Foundation
import Testing

@testable import ObjectGraph

/// The key correctness test of the SQLite store's queries: generated predicates, sort
/// descriptors, offsets and limits give exactly the same objects, in the same order, through
/// the SQL compiler as through the in-memory evaluator.
@Suite("SQL query compiler: differential test against the evaluator")
struct SQLQueryDifferentialTests {
    @Test("2,500 generated fetches return the same objects in the same order as the evaluator")
    func generated() throws {
        let harness = try DifferentialHarness(seed: 20_261_129)
        var generator = DifferentialPredicateGenerator(seed: 5, data: harness.data)
        var tally = DifferentialTally()
        let total = 2_500
        for _ in 0..<total {
            let fetch = generator.fetch()
            tally.record(harness.run(fetch), fetch)
        }
        tally.report("SQL differential")
        #expect(tally.mismatches.isEmpty)
        #expect(tally.identical >= 2_000)
        #expect(tally.nonEmpty >= 1_000)
        #expect(tally.rejectedCount <= total / 20)
    }

    /// Hand-written fetches for combinations the generator does not make: correlated nested
    /// subqueries, collections on both sides, object comparisons across relationships.
    static let handwritten: [(entity: String, format: String)] = [
        (
            "Item",
            "SUBQUERY(children, $c, SUBQUERY($c.tags, $t, $t.name == $c.name).@count > 0).@count > 0"
        ),
        ("Item", "SUBQUERY(children, $c, ANY $c.tags.name ==[cd] name).@count >= 1"),
        ("Item", "ANY tags.name IN team.members.name"),
        ("Item", "ANY children.team == team"),
        ("Item", "ALL children.team == team"),
        ("Item", "parent.team == team AND team != nil"),
        ("Item", "parent == parent.parent OR SELF == parent"),
        ("Item", "NONE tags.score > 1.5 AND tags.@count > 0"),
        ("Item", "ANY children.children.name BEGINSWITH[c] 'a'"),
        ("Item", "tags.@avg.score > 0.5 OR tags.@min.score == nil"),
        ("Item", "children.@max.when > parent.when"),
        ("Item", "team.members.@count > 10 AND team.league.name != nil"),
        ("Item", "SUBQUERY(team.members, $m, $m.tags.@count > 2).@count == 0"),
        ("Item", "name LIKE[c] '*a*' AND NOT name LIKE 'a?p*'"),
        ("Item", "name MATCHES[cd] 'cafe.*' OR name ENDSWITH[d] 'e'"),
        ("Item", "name IN[c] {'ALPHA', 'cafe\u{301}'} OR 'é' IN[d] name"),
        ("Item", "count BETWEEN {-5, 5} AND amount BETWEEN {price, 100}"),
        ("Item", "count + small * 2 > big / 4 OR -ratio == price"),
        ("Item", "TERNARY(flag == YES, count, small) >= 0"),
        ("Item", "abs:(small) == 3 OR FUNCTION(name, 'length') > 5"),
        ("Team", "ANY members.tags.score < 0 AND ALL members.small >= -10"),
        ("Team", "members.@sum.count > 0 AND members.@avg.ratio != nil"),
        ("Team", "SUBQUERY(members, $m, $m.team == SELF).@count == members.@count"),
        ("Team", "league.teams.@count >= 3"),
        ("Tag", "ANY items.team.league.name != nil"),
        ("Tag", "items.@count == 0 OR ANY items.flag == YES"),
        ("Item", "name == 'K' OR name == 'a;b' OR name == '`x' OR name == 'Jo'"),
        ("Item", "name BEGINSWITH 'K' OR name BEGINSWITH 'J' OR name BEGINSWITH '~'"),
        ("Item", "name IN {'K', 'Cafe', 'Joe'} OR name BEGINSWITH 'a'"),
        ("Item", "name != 'K' AND name != nil"),
        ("Gadget", "power > 0 AND label BEGINSWITH[c] 'a'"),
        ("Widget", "weight < 0 OR parent.name == nil"),
        ("Item", "name BEGINSWITH 'Jo' OR name BEGINSWITH 'Ja' OR name BEGINSWITH 'x'"),
        ("Item", "NOT name BEGINSWITH 'e' AND NOT name BEGINSWITH 'Cafe'"),
        ("Gadget", "name BEGINSWITH ' ' OR label BEGINSWITH 'a' OR name BEGINSWITH 'J'"),
    ]

    @Test("hand-written fetches for tricky combinations agree with the evaluator")
    func handwrittenFetches() throws {
        let harness = try DifferentialHarness(seed: 20_261_129)
        var nonEmpty = 0
        for (entity, format) in Self.handwritten {
            let predicate = try Predicate(format: format)
            for sort in [[], [SortDescriptor("name", ascending: false)]] {
                let fetch = DifferentialPredicateGenerator.Fetch(
                    entity: entity, includesSubentities: true, predicate: predicate, sort: sort,
                    offset: 0, limit: 0)
                switch harness.run(fetch) {
                case .identical(let count):
                    if count > 0 { nonEmpty += 1 }
                case .rejected(let error):
                    Issue.record("\(format) was rejected: \(error)")
                case .bothFailed:
                    Issue.record("\(format) failed in both")
                case .mismatch(let text):
                    Issue.record("MISMATCH \(text)")
                }
            }
        }
        #expect(nonEmpty >= Self.handwritten.count)
    }
}
