import Foundation
import ObjectGraphCLI
import Testing

/// `objectgraph validate --all-versions` over every model of the shared corpus (each compiled
/// by Xcode) reports 0 errors: `../shared/corpus/xcdatamodel` (or the corpus
/// `OBJECTGRAPH_CORPUS` names) and the models beside the corpus's Core Data stores. Skipped
/// when the corpus is absent.
@Suite("validate over the corpus")
struct ValidateCorpusTests {
    /// Every `.xcdatamodeld` bundle and every `.xcdatamodel` outside a bundle below `folder`.
    static func models(below folder: URL) -> [String] {
        guard let walker = FileManager.default.enumerator(atPath: folder.path) else { return [] }
        var result: [String] = []
        while let next = walker.nextObject() as? String {
            let name = (next as NSString).lastPathComponent
            if name.hasSuffix(".xcdatamodeld") || name.hasSuffix(".xcdatamodel") {
                result.append(folder.appendingPathComponent(next).path)
                walker.skipDescendants()
            }
        }
        return result.sorted()
    }

    /// Whether the bundle at `path` holds at least one version (one corpus bundle holds only a
    /// `.xccurrentversion`: it is no model, and Xcode has nothing to compile in it).
    static func holdsVersion(_ path: String) -> Bool {
        guard path.hasSuffix(".xcdatamodeld") else { return true }
        let names = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
        return names.contains { $0.hasSuffix(".xcdatamodel") }
    }

    @Test(
        "every corpus model validates with 0 errors, in every version",
        .enabled(if: GeneratedCodeCorpusTests.corpus != nil))
    func corpusHasNoErrors() throws {
        let corpus = try #require(GeneratedCodeCorpusTests.corpus)
        let paths =
            Self.models(below: corpus.appendingPathComponent("xcdatamodel"))
            + Self.models(below: corpus.appendingPathComponent("coredata-stores")).filter {
                $0.hasSuffix(".xcdatamodeld")  // beside them: legacy binary models, not XML
            }
        let models = paths.filter(Self.holdsVersion)
        #expect(models.count >= 55)
        #expect(paths.count - models.count <= 1)
        let result = ValidateDescribeFiles.run(["validate", "--all-versions"] + models)
        #expect(result.status == 0, "\(result.errors)")
        #expect(result.errors.isEmpty)
        let lines = result.output.split(separator: "\n")
        let errors = lines.filter { $0.contains(": error: ") }
        #expect(errors.isEmpty, "\(errors.prefix(5))")
        let summaries = lines.filter { $0.hasSuffix(" warnings") || $0.hasSuffix(" warning") }
        #expect(summaries.count >= 80)
        #expect(summaries.allSatisfy { $0.contains(": 0 errors, ") }, "\(summaries)")
        // The corpus's known oddities are warnings: missing inverses, ordered to-ones,
        // `deleted`, integer defaults written "0.0".
        for ruleID in [
            "missing-inverse", "ordered-to-one", "shadowing-name", "lenient-default-value",
        ] {
            #expect(lines.contains { $0.contains(": warning: ") && $0.hasSuffix("[\(ruleID)]") })
        }
    }
}
