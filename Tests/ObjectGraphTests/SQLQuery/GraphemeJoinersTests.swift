import Testing

@testable import ObjectGraph

/// The table of scalars that join a printable ASCII character before them (which the
/// PostgreSQL `BEGINSWITH` translation tests the character after the prefix against) is
/// exactly Swift's grapheme breaking, for every scalar.
@Suite("Grapheme joiners")
struct GraphemeJoinersTests {
    @Test("a scalar is in the table exactly when it joins the character before it in Swift")
    func everyScalar() {
        var mismatches: [UInt32] = []
        for value in UInt32(0)...0x10FFFF {
            guard let scalar = Unicode.Scalar(value) else { continue }
            var text = "a"
            text.unicodeScalars.append(scalar)
            if (text.count == 1) != GraphemeJoiners.contains(scalar), mismatches.count < 20 {
                mismatches.append(value)
            }
        }
        #expect(mismatches.isEmpty, "\(mismatches.map { String($0, radix: 16) })")
        #expect(GraphemeJoiners.first == "\u{300}")
    }

    @Test("every printable ASCII character is joined by the same scalars")
    func everyPrintableCharacter() {
        // One scalar of each range and the scalars around it, after every printable character.
        var probes: [Unicode.Scalar] = []
        for range in GraphemeJoiners.ranges {
            for value in [range.lowerBound - 1, range.lowerBound, range.upperBound + 1] {
                if let scalar = Unicode.Scalar(value) { probes.append(scalar) }
            }
        }
        for base in UInt32(0x20)...0x7E {
            guard let first = Unicode.Scalar(base) else { continue }
            for scalar in probes {
                var text = String(first)
                text.unicodeScalars.append(scalar)
                #expect(
                    (text.count == 1) == GraphemeJoiners.contains(scalar),
                    "\(base) + \(String(scalar.value, radix: 16))")
            }
        }
    }

    @Test("the PostgreSQL pattern lists the ranges as characters")
    func pattern() {
        let scalars = Array(GraphemeJoiners.postgresPattern.unicodeScalars)
        #expect(scalars.starts(with: "^[\u{300}-\u{36F}\u{483}".unicodeScalars))
        #expect(scalars.suffix(4) == ["\u{E0100}", "-", "\u{E01EF}", "]"])
        #expect(
            scalars.filter { $0.value < 0x300 } == ["^", "["] + scalars.filter { $0 == "-" } + ["]"]
        )
    }
}
