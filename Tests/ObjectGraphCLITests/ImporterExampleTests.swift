import Foundation
import Testing

/// The built `Importer` example, when there is one.
let importerExample = builtExecutable("Importer")

/// `Examples/Importer` run as a process from the package folder (where it finds
/// `Models/Importer.xcdatamodeld`): background imports merge into the view context, which ends
/// with the exact count.
@Suite(
    "The Importer example",
    .enabled(if: importerExample != nil, "the Importer example is not built"))
struct ImporterExampleTests {
    /// Runs the example with `arguments`; returns its status, output and errors.
    static func run(_ arguments: [String]) throws -> (status: Int32, output: String, errors: String)
    {
        try runProcess(try #require(importerExample), arguments, in: packageRoot)
    }

    @Test("imports every contact, reports each part's progress and every merge, exits 0")
    func importsExactly() throws {
        let result = try Self.run(["--contacts", "2000", "--parts", "4", "--batch", "250"])
        #expect(result.status == 0, "\(result.errors)")
        #expect(result.errors.isEmpty)
        let lines = result.output.split(separator: "\n").map(String.init)
        for part in 1...4 {
            #expect(lines.contains("  part \(part): saved 500 of 500"))
            #expect(lines.contains("part \(part): 500 contacts in the store"))
        }
        // Eight saves of 250 merged into the view context, each shown as it came.
        #expect(lines.filter { $0.hasPrefix("view context: merged 250, shows ") }.count == 8)
        #expect(lines.last == "view context: 2000 contacts (merged 2000); expected 2000")
    }

    @Test("a bad argument exits 2 with the usage")
    func usage() throws {
        let result = try Self.run(["--parts", "0"])
        #expect(result.status == 2)
        #expect(result.errors.contains("--parts needs a positive integer, not '0'"))
        #expect(result.errors.contains("usage: Importer"))
    }
}
