import Foundation
import Testing

@testable import ObjectGraph

@Suite("Real Xcode models in the shared corpus")
struct CorpusModelTests {
    /// Every `.xcdatamodeld` bundle and every unwrapped `.xcdatamodel` in the corpus.
    static func modelPaths() -> (bundles: [URL], unwrapped: [URL]) {
        guard let corpus = TestSupport.corpus else { return ([], []) }
        var bundles: [URL] = []
        var unwrapped: [URL] = []
        for contents in TestSupport.contentsFiles(below: corpus) {
            let version = contents.deletingLastPathComponent()
            let parent = version.deletingLastPathComponent()
            if parent.pathExtension == "xcdatamodeld" {
                if !bundles.contains(parent) { bundles.append(parent) }
            } else if version.pathExtension == "xcdatamodel" {
                unwrapped.append(version)
            }
        }
        return (bundles, unwrapped)
    }

    @Test(
        "every bundle opens, and every version in it loads without errors",
        .enabled(if: TestSupport.hasCorpus))
    func bundlesLoad() throws {
        let (bundles, _) = Self.modelPaths()
        #expect(bundles.count >= 40)
        var versions = 0
        for url in bundles {
            let bundle = try ModelBundle(contentsOf: url)
            #expect(bundle.versionNames.contains(bundle.currentVersionName), "\(url.path)")
            for name in bundle.versionNames {
                let model = try bundle.model(named: name)
                let errors = model.loadDiagnostics.filter { $0.severity == .error }
                #expect(errors.isEmpty, "\(url.path) \(name): \(errors)")
                versions += 1
            }
            _ = try EntityModel(contentsOf: url)
        }
        #expect(versions >= 80)
    }

    @Test("unwrapped .xcdatamodel folders load", .enabled(if: TestSupport.hasCorpus))
    func unwrappedLoad() throws {
        let (_, unwrapped) = Self.modelPaths()
        #expect(!unwrapped.isEmpty)
        for url in unwrapped {
            let model = try EntityModel(contentsOf: url)
            #expect(!model.loadDiagnostics.contains { $0.severity == .error }, "\(url.path)")
        }
    }

    @Test(
        "the current version named by .xccurrentversion is used, even when it is the first",
        .enabled(if: TestSupport.hasCorpus))
    func recordedCurrentVersion() throws {
        let corpus = try #require(TestSupport.corpus)
        let plus = corpus.appendingPathComponent(
            "xcdatamodel/34-coredataplus/SampleModel.xcdatamodeld")
        let bundle = try ModelBundle(contentsOf: plus)
        #expect(bundle.currentVersionSource == .recorded)
        #expect(bundle.currentVersionName == "SampleModel")
        let moonlight = corpus.appendingPathComponent(
            "xcdatamodel/35-moonlight/Limelight.xcdatamodeld")
        let moon = try ModelBundle(contentsOf: moonlight)
        #expect(moon.currentVersionName == "Moonlight v1.10")
        #expect(moon.versionNames.count == 15)
    }

    @Test(
        "a bundle with a legacy binary version still lists and loads its XML versions",
        .enabled(if: TestSupport.hasCorpus))
    func legacyVersionInBundle() throws {
        let corpus = try #require(TestSupport.corpus)
        let url = corpus.appendingPathComponent(
            "xcdatamodel/36-simplenote-ios/Simplenote.xcdatamodeld")
        let bundle = try ModelBundle(contentsOf: url)
        #expect(bundle.legacyVersionNames == ["Simplenote"])
        #expect(bundle.versionNames.count == 6)
        #expect(throws: ModelError.self) { try bundle.model(named: "Simplenote") }
    }
}
