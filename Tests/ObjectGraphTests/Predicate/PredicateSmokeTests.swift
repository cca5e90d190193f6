import Foundation
import ObjectGraph
import Testing

@Test func smoke() throws {
    let cases = [
        "age > 30 AND name BEGINSWITH[cd] $PREFIX",
        "a = 1 OR b = 2 AND c = 3",
        "NONE tags.name == 'x'",
        "(a + b) * 2 > -3",
        "SUBQUERY(items, $i, $i.price > 5).@count > 0",
        "date > CAST(0, 'NSDate')",
        "average({1, 2, 3}) == 2",
        "x IN {1, 2.5, \"s\", nil, TRUE}",
        "#in.x == 1",
        "a[FIRST] == b[0]",
        "TERNARY(a == 1, 'y', 'n') == 'y'",
        "add:to:(1, 2) == 3",
        "FUNCTION(name, 'uppercaseString') == 'X'",
        "-(5) == -5",
    ]
    for c in cases {
        let p = try Predicate(format: c)
        print(c, "=>", p)
        let again = try Predicate(format: p.description)
        #expect(again == p, "\(c)")
    }
}
