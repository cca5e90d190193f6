import Foundation
import Testing

@testable import ObjectGraph

@Suite("Versioned model bundles")
struct ModelBundleTests {
    static func contents(tools: String, entity: String) -> String {
        #"<?xml version="1.0" encoding="UTF-8" standalone="yes"?>"# + "\n"
            + #"<model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" "#
            + #"lastSavedToolsVersion="\#(tools)" systemVersion="23E224" "#
            + #"minimumToolsVersion="Automatic" userDefinedModelVersionIdentifier="">"# + "\n"
            + #"    <entity name="\#(entity)" syncable="YES"/>"# + "\n</model>"
    }

    static func currentVersionFile(_ name: String?) -> String {
        let body =
            name.map {
                "<dict>\n\t<key>_XCCurrentVersionName</key>\n\t<string>\($0)</string>\n</dict>"
            } ?? "<dict/>"
        return """
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
            <plist version="1.0">
            \(body)
            </plist>

            """
    }

    /// Makes `Foo.xcdatamodeld` with the given versions (name → tools version).
    static func makeBundle(
        in folder: URL, versions: [(String, String)], current: String?? = .none
    ) throws -> URL {
        let bundle = folder.appendingPathComponent("Foo.xcdatamodeld")
        for (name, tools) in versions {
            let version = bundle.appendingPathComponent(name + ".xcdatamodel")
            try FileManager.default.createDirectory(at: version, withIntermediateDirectories: true)
            let entity = name.replacingOccurrences(of: " ", with: "").replacingOccurrences(
                of: ".", with: "_")
            try Data(contents(tools: tools, entity: entity).utf8).write(
                to: version.appendingPathComponent("contents"))
        }
        try FileManager.default.createDirectory(at: bundle, withIntermediateDirectories: true)
        if case .some(let name) = current {
            try Data(currentVersionFile(name).utf8).write(
                to: bundle.appendingPathComponent(".xccurrentversion"))
        }
        return bundle
    }

    @Test("the version named by .xccurrentversion is current, whatever its name sorts like")
    func recorded() throws {
        let folder = try TestSupport.makeTemporaryFolder()
        defer { TestSupport.removeTemporaryFolder(folder) }
        let url = try Self.makeBundle(
            in: folder, versions: [("Foo", "100"), ("Foo 2", "200"), ("Foo 10", "300")],
            current: "Foo 2.xcdatamodel")
        let bundle = try ModelBundle(contentsOf: url)
        #expect(bundle.versionNames == ["Foo", "Foo 2", "Foo 10"])
        #expect(bundle.currentVersionName == "Foo 2")
        #expect(bundle.currentVersionSource == .recorded)
        #expect(try EntityModel(contentsOf: url).entity(named: "Foo2") != nil)
        #expect(try EntityModel(contentsOf: url, version: "Foo 10").entity(named: "Foo10") != nil)
        #expect(
            try EntityModel(contentsOf: url, version: "Foo.xcdatamodel").entity(named: "Foo") != nil
        )
        #expect(throws: ModelError.self) { try EntityModel(contentsOf: url, version: "Foo 3") }
    }

    @Test("no .xccurrentversion and one version: that version, no warning")
    func onlyVersion() throws {
        let folder = try TestSupport.makeTemporaryFolder()
        defer { TestSupport.removeTemporaryFolder(folder) }
        let url = try Self.makeBundle(in: folder, versions: [("Foo", "100")])
        let bundle = try ModelBundle(contentsOf: url)
        #expect(bundle.currentVersionSource == .onlyVersion)
        #expect(bundle.diagnostics.isEmpty)
    }

    @Test(
        "missing or empty .xccurrentversion with several versions: the newest save, said",
        arguments: [false, true])
    func inferred(emptyDictionary: Bool) throws {
        let folder = try TestSupport.makeTemporaryFolder()
        defer { TestSupport.removeTemporaryFolder(folder) }
        let versions = [("Foo", "14315.12.1"), ("Foo 2", "22758"), ("Foo 10", "21754")]
        let url = try Self.makeBundle(
            in: folder, versions: versions, current: emptyDictionary ? .some(nil) : .none)
        let bundle = try ModelBundle(contentsOf: url)
        #expect(bundle.currentVersionName == "Foo 2")
        #expect(bundle.currentVersionSource == .inferred)
        let warning = try #require(bundle.diagnostics.first)
        #expect(warning.ruleID == "current-version-inferred")
        #expect(warning.severity == .warning)
        #expect(warning.message.contains("'Foo 2'"))
        let model = try EntityModel(contentsOf: url)
        #expect(model.loadDiagnostics.contains { $0.ruleID == "current-version-inferred" })
    }

    @Test(".xccurrentversion naming a missing version is a located error")
    func missingCurrent() throws {
        let folder = try TestSupport.makeTemporaryFolder()
        defer { TestSupport.removeTemporaryFolder(folder) }
        let url = try Self.makeBundle(
            in: folder, versions: [("Foo", "1")], current: "Foo 7.xcdatamodel")
        do {
            _ = try EntityModel(contentsOf: url)
            Issue.record("expected an error")
        } catch let error as ModelError {
            #expect(error.kind == .missingVersion)
            #expect(error.description.contains(".xccurrentversion:1:1"))
            #expect(error.message.contains("Foo 7.xcdatamodel"))
        }
    }

    @Test("a bundle with no version is not a model")
    func emptyBundle() throws {
        let folder = try TestSupport.makeTemporaryFolder()
        defer { TestSupport.removeTemporaryFolder(folder) }
        let url = try Self.makeBundle(in: folder, versions: [], current: .some(nil))
        #expect(throws: ModelError.self) { try ModelBundle(contentsOf: url) }
    }

    @Test("natural order compares digit runs by value")
    func naturalOrder() {
        let names = ["Moonlight v1.10", "Model", "Moonlight v1.9", "0.6.10", "Model 2", "0.6.7"]
        #expect(
            names.sorted(by: NaturalOrder.precedes) == [
                "0.6.7", "0.6.10", "Model", "Model 2", "Moonlight v1.9", "Moonlight v1.10",
            ])
    }
}
