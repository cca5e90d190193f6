/// The generated data set: `count` contacts in `parts` parts, each part imported by its own
/// background context in batches of `batchSize`. Every value follows from the contact's index,
/// so a run can be checked exactly.
struct DataSet: Sendable {
    /// How many contacts in all.
    var count = 20_000
    /// How many parts (importers working at once).
    var parts = 4
    /// How many contacts an importer saves at once.
    var batchSize = 1_000

    static let usage = """
        usage: Importer [--contacts N] [--parts P] [--batch B]
          --contacts N   contacts to generate and import (default 20000)
          --parts P      background importers working at once (default 4)
          --batch B      contacts per save (default 1000)
        """

    /// Reads the command line (without the program name).
    init(arguments: [String]) throws(UsageError) {
        var rest = arguments[...]
        while let flag = rest.popFirst() {
            guard let text = rest.popFirst() else { throw UsageError("\(flag) needs a value") }
            guard let number = Int(text), number > 0 else {
                throw UsageError("\(flag) needs a positive integer, not '\(text)'")
            }
            switch flag {
            case "--contacts": count = number
            case "--parts": parts = number
            case "--batch": batchSize = number
            default: throw UsageError("unknown argument '\(flag)'")
            }
        }
        guard parts <= count else {
            throw UsageError("--parts (\(parts)) cannot exceed --contacts (\(count))")
        }
    }

    /// The contacts (by index) of part `part` (0-based): contiguous slices, the last one
    /// taking the remainder.
    func indexes(ofPart part: Int) -> Range<Int> {
        let size = count / parts
        let start = part * size
        return start..<(part == parts - 1 ? count : start + size)
    }

    /// The values of contact `index` (0-based).
    func contact(_ index: Int) -> (id: Int64, name: String, email: String, score: Double) {
        let first = ["Ada", "Alan", "Barbara", "Edsger", "Grace", "Ken", "Margaret", "Niklaus"]
        let last = ["Hopper", "Kay", "Knuth", "Lamport", "Liskov", "Ritchie", "Thompson"]
        let name =
            "\(first[index % first.count]) \(last[index / first.count % last.count]) \(index)"
        return (Int64(index + 1), name, "contact\(index)@example.com", Double(index % 1_000) / 10)
    }
}

/// A command line the example cannot read.
struct UsageError: Error, CustomStringConvertible {
    let description: String

    init(_ description: String) { self.description = description }
}
