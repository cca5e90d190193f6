import Foundation

@testable import ObjectGraph

/// The outcomes of many differential fetches (``DifferentialHarness/Outcome``), counted, with
/// the compiler's reasons for refusing and the mismatches, for the SQLite and PostgreSQL
/// differential tests alike.
struct DifferentialTally {
    var total = 0
    var identical = 0
    var nonEmpty = 0
    var bothFailed = 0
    var rejected: [String: Int] = [:]
    var examples: [String] = []
    var mismatches: [String] = []

    /// How many fetches the compiler refused.
    var rejectedCount: Int { rejected.values.reduce(0, +) }

    /// Counts the outcome of `fetch`.
    mutating func record(
        _ outcome: DifferentialHarness.Outcome, _ fetch: DifferentialPredicateGenerator.Fetch
    ) {
        total += 1
        switch outcome {
        case .identical(let count):
            identical += 1
            if count > 0 { nonEmpty += 1 }
        case .rejected(let error):
            let reason: String
            switch error {
            case .unsupported(_, let why): reason = why
            case .unknownEntity: reason = error.description
            }
            rejected[reason, default: 0] += 1
            if examples.count < 8 { examples.append("\(fetch.predicate): \(error)") }
        case .bothFailed:
            bothFailed += 1
        case .mismatch(let text):
            mismatches.append(text)
        }
    }

    /// Prints the counts, the reasons by frequency and the first mismatches.
    func report(_ label: String) {
        print(
            "\(label): \(total) fetches, \(identical) identical (\(nonEmpty) non-empty), "
                + "\(rejectedCount) rejected by the compiler, \(bothFailed) failing in both, "
                + "\(mismatches.count) mismatches")
        for (reason, count) in rejected.sorted(by: { $0.value > $1.value }) {
            print("  rejected \(count)×: \(reason)")
        }
        for example in examples { print("  e.g. \(example)") }
        for mismatch in mismatches.prefix(10) { print("MISMATCH \(mismatch)") }
    }
}
