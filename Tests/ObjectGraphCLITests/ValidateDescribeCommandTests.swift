import Foundation
import ObjectGraph
import ObjectGraphCLI
import Testing

/// Model files written into a temporary folder for one test, removed by ``remove()``.
struct ValidateDescribeFiles {
    let folder: URL

    init() throws {
        folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("objectgraph-cli-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    /// Writes `body` (the elements inside `<model>`) as `name.xcdatamodel/contents` and returns
    /// the `.xcdatamodel` folder's path.
    func model(_ name: String, _ body: String) throws -> String {
        let modelFolder = folder.appendingPathComponent("\(name).xcdatamodel")
        try FileManager.default.createDirectory(at: modelFolder, withIntermediateDirectories: true)
        let xml = """
            <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
            <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" \
            lastSavedToolsVersion="23231" systemVersion="24A335" minimumToolsVersion="Automatic" \
            sourceLanguage="Swift" userDefinedModelVersionIdentifier="">
            \(body)
            </model>
            """
        try Data(xml.utf8).write(to: modelFolder.appendingPathComponent("contents"))
        return modelFolder.path
    }

    /// Writes a raw file and returns its path.
    func file(_ name: String, _ text: String) throws -> String {
        let url = folder.appendingPathComponent(name)
        try Data(text.utf8).write(to: url)
        return url.path
    }

    func remove() {
        try? FileManager.default.removeItem(at: folder)
    }

    /// Runs the tool and returns the exit code and both outputs.
    static func run(_ arguments: [String]) -> (status: Int32, output: String, errors: String) {
        let io = BufferIO()
        let status = CommandLineTool.run(arguments, io: io)
        return (status, io.output, io.errorOutput)
    }

    /// A small correct model: an abstract parent, inverse to-many pair, a constraint, a
    /// template and a configuration.
    static let school = """
            <entity name="Person" representedClassName="Person" isAbstract="YES" syncable="YES">
                <attribute name="name" attributeType="String"/>
            </entity>
            <entity name="Student" representedClassName="Student" parentEntity="Person" syncable="YES">
                <attribute name="number" attributeType="Integer 32" defaultValueString="0" usesScalarValueType="YES"/>
                <relationship name="courses" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Course" inverseName="students" inverseEntity="Course"/>
                <uniquenessConstraints>
                    <uniquenessConstraint>
                        <constraint value="number"/>
                    </uniquenessConstraint>
                </uniquenessConstraints>
            </entity>
            <entity name="Course" representedClassName="Course" syncable="YES">
                <attribute name="title" attributeType="String"/>
                <relationship name="students" optional="YES" toMany="YES" ordered="YES" deletionRule="Cascade" destinationEntity="Student" inverseName="courses" inverseEntity="Student"/>
            </entity>
            <fetchRequest name="byTitle" entity="Course" predicateString="title == $TITLE"/>
            <configuration name="Local">
                <memberEntity name="Course"/>
            </configuration>
        """

    /// One warning (line 4): a relationship without an inverse.
    static let warnings = """
            <entity name="Node" representedClassName="Node" syncable="YES">
                <relationship name="parent" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Node"/>
            </entity>
        """

    /// One error (line 5): an entity declared twice.
    static let errors = """
            <entity name="Node" representedClassName="Node" syncable="YES">
            </entity>
            <entity name="Node" representedClassName="Node" syncable="YES"/>
        """
}

@Suite("objectgraph validate and describe")
struct ValidateDescribeCommandTests {
    // MARK: validate

    @Test("a clean model exits 0 with a summary line")
    func validateClean() throws {
        let files = try ValidateDescribeFiles()
        defer { files.remove() }
        let path = try files.model("School", ValidateDescribeFiles.school)
        let result = ValidateDescribeFiles.run(["validate", path])
        #expect(result.status == 0)
        #expect(result.output == "\(path): 0 errors, 0 warnings\n")
        #expect(result.errors.isEmpty)
    }

    @Test("warnings print compiler style and still exit 0")
    func validateWarnings() throws {
        let files = try ValidateDescribeFiles()
        defer { files.remove() }
        let path = try files.model("Tree", ValidateDescribeFiles.warnings)
        let result = ValidateDescribeFiles.run(["validate", path])
        #expect(result.status == 0)
        let lines = result.output.split(separator: "\n").map(String.init)
        #expect(lines.count == 2)
        #expect(
            lines.first?.hasPrefix("\(path)/contents:4:9: warning: relationship 'Node.parent'")
                == true)
        #expect(lines.first?.hasSuffix(" [missing-inverse]") == true)
        #expect(lines.last == "\(path): 0 errors, 1 warning")
    }

    @Test("--warnings-as-errors turns warnings into errors and exits 1")
    func warningsAsErrors() throws {
        let files = try ValidateDescribeFiles()
        defer { files.remove() }
        let path = try files.model("Tree", ValidateDescribeFiles.warnings)
        let result = ValidateDescribeFiles.run(["validate", "--warnings-as-errors", path])
        #expect(result.status == 1)
        #expect(result.output.contains("contents:4:9: error: relationship 'Node.parent'"))
        #expect(result.output.hasSuffix("\(path): 1 error, 0 warnings\n"))
    }

    @Test("a model with errors exits 1")
    func validateErrors() throws {
        let files = try ValidateDescribeFiles()
        defer { files.remove() }
        let path = try files.model("Twice", ValidateDescribeFiles.errors)
        let result = ValidateDescribeFiles.run(["validate", path])
        #expect(result.status == 1)
        #expect(
            result.output.contains(
                "\(path)/contents:5:5: error: entity 'Node' is declared more than once "
                    + "[duplicate-entity]"))
        #expect(result.output.hasSuffix("\(path): 1 error, 0 warnings\n"))
    }

    @Test("every path is checked, and the worst result decides the exit code")
    func validateSeveral() throws {
        let files = try ValidateDescribeFiles()
        defer { files.remove() }
        let clean = try files.model("School", ValidateDescribeFiles.school)
        let broken = try files.model("Twice", ValidateDescribeFiles.errors)
        let result = ValidateDescribeFiles.run(["validate", clean, broken])
        #expect(result.status == 1)
        #expect(result.output.contains("\(clean): 0 errors, 0 warnings\n"))
        #expect(result.output.contains("\(broken): 1 error, 0 warnings\n"))

        let missing = files.folder.appendingPathComponent("Missing.xcdatamodel").path
        let withMissing = ValidateDescribeFiles.run(["validate", broken, missing])
        #expect(withMissing.status == 2)
        #expect(withMissing.output.contains("\(broken): 1 error"))
        #expect(withMissing.errors.hasPrefix(missing))
    }

    @Test("--all-versions checks every version of a bundle")
    func validateAllVersions() throws {
        let files = try ValidateDescribeFiles()
        defer { files.remove() }
        let bundle = files.folder.appendingPathComponent("Tree.xcdatamodeld")
        try FileManager.default.createDirectory(at: bundle, withIntermediateDirectories: true)
        let old = try files.model("Tree.xcdatamodeld/Tree", ValidateDescribeFiles.errors)
        let new = try files.model("Tree.xcdatamodeld/Tree 2", ValidateDescribeFiles.school)
        let current = """
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" \
            "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
            <plist version="1.0">
            <dict>
                <key>_XCCurrentVersionName</key>
                <string>Tree 2.xcdatamodel</string>
            </dict>
            </plist>
            """
        try Data(current.utf8).write(to: bundle.appendingPathComponent(".xccurrentversion"))

        let currentOnly = ValidateDescribeFiles.run(["validate", bundle.path])
        #expect(currentOnly.status == 0)
        #expect(currentOnly.output == "\(bundle.path): 0 errors, 0 warnings\n")

        let every = ValidateDescribeFiles.run(["validate", "--all-versions", bundle.path])
        #expect(every.status == 1)
        #expect(every.output.contains("\(old): 1 error, 0 warnings\n"))
        #expect(every.output.contains("\(new): 0 errors, 0 warnings\n"))
    }

    @Test("malformed XML exits 2 with path:line:column on standard error")
    func validateMalformed() throws {
        let files = try ValidateDescribeFiles()
        defer { files.remove() }
        let path = try files.file(
            "contents", "<?xml version=\"1.0\"?>\n<model>\n  <entity name=\"A\">\n</model>\n")
        let result = ValidateDescribeFiles.run(["validate", path])
        #expect(result.status == 2)
        #expect(result.output.isEmpty)
        #expect(result.errors.hasPrefix("\(path):4:"))
        #expect(result.errors.contains(": error: "))
    }

    @Test("a missing or empty file exits 2")
    func validateUnreadable() throws {
        let files = try ValidateDescribeFiles()
        defer { files.remove() }
        let missing = ValidateDescribeFiles.run([
            "validate", files.folder.appendingPathComponent("none").path,
        ])
        #expect(missing.status == 2)
        #expect(missing.errors.contains("error:"))
        let empty = try files.file("contents", "")
        let emptyResult = ValidateDescribeFiles.run(["validate", empty])
        #expect(emptyResult.status == 2)
        #expect(emptyResult.errors.hasPrefix(empty))
    }

    @Test("--format json reports every diagnostic with its fields and a summary")
    func validateJSON() throws {
        let files = try ValidateDescribeFiles()
        defer { files.remove() }
        let path = try files.model("Tree", ValidateDescribeFiles.warnings)
        let bad = try files.file("bad", "<model><entity></model>")
        let result = ValidateDescribeFiles.run(["validate", "--format", "json", path, bad])
        #expect(result.status == 2)
        let object = try #require(
            try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any])
        #expect(object["errors"] as? Int == 0)
        #expect(object["warnings"] as? Int == 1)
        #expect(object["unreadable"] as? Int == 1)
        let models = try #require(object["models"] as? [[String: Any]])
        #expect(models.count == 2)
        #expect(models[0]["path"] as? String == path)
        #expect(models[0]["readable"] as? Bool == true)
        #expect(models[0]["loadError"] is NSNull)
        let diagnostics = try #require(models[0]["diagnostics"] as? [[String: Any]])
        let diagnostic = try #require(diagnostics.first)
        #expect(diagnostic["ruleID"] as? String == "missing-inverse")
        #expect(diagnostic["severity"] as? String == "warning")
        #expect(diagnostic["path"] as? String == "\(path)/contents")
        #expect(diagnostic["line"] as? Int == 4)
        #expect(diagnostic["column"] as? Int == 9)
        #expect(diagnostic["entity"] as? String == "Node")
        #expect(diagnostic["property"] as? String == "parent")
        #expect((diagnostic["message"] as? String)?.contains("no inverse") == true)
        #expect(models[1]["readable"] as? Bool == false)
        let failure = try #require(models[1]["loadError"] as? [String: Any])
        #expect(failure["kind"] as? String == "malformedXML")
        #expect(failure["line"] as? Int == 1)
        #expect(failure["path"] as? String == bad)
    }

    @Test("--format=json with a clean model has an empty diagnostics list")
    func validateJSONClean() throws {
        let files = try ValidateDescribeFiles()
        defer { files.remove() }
        let path = try files.model("School", ValidateDescribeFiles.school)
        let result = ValidateDescribeFiles.run(["validate", "--format=json", path])
        #expect(result.status == 0)
        let object = try #require(
            try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any])
        let models = try #require(object["models"] as? [[String: Any]])
        #expect((models.first?["diagnostics"] as? [Any])?.isEmpty == true)
        #expect(object["errors"] as? Int == 0)
    }

    @Test(
        "usage errors exit 2 with a hint",
        arguments: [
            ["validate"], ["validate", "--format"], ["validate", "--format", "xml", "x"],
            ["validate", "--strict", "x"], ["describe"], ["describe", "a", "b"],
            ["describe", "--hashes", "a"],
        ])
    func usageErrors(_ arguments: [String]) {
        let result = ValidateDescribeFiles.run(arguments)
        #expect(result.status == 2)
        #expect(result.output.isEmpty)
        let lines = result.errors.split(separator: "\n")
        #expect(lines.count == 2)
        #expect(lines.first?.hasPrefix("error: ") == true)
        #expect(lines.last?.hasPrefix("hint: run 'objectgraph \(arguments[0]) --help'") == true)
    }

    @Test("--help explains each command and exits 0", arguments: ["validate", "describe"])
    func help(_ command: String) {
        let result = ValidateDescribeFiles.run([command, "--help"])
        #expect(result.status == 0)
        #expect(result.output.contains("USAGE: objectgraph \(command)"))
        #expect(result.output.contains("EXIT STATUS"))
    }

    @Test("the tool's help lists both commands")
    func toolHelp() {
        let result = ValidateDescribeFiles.run(["--help"])
        #expect(result.status == 0)
        #expect(result.output.contains("  validate "))
        #expect(result.output.contains("  describe "))
    }

    // MARK: describe

    @Test("describe summarizes entities, properties, constraints, templates and configurations")
    func describeSummary() throws {
        let files = try ValidateDescribeFiles()
        defer { files.remove() }
        let path = try files.model("School", ValidateDescribeFiles.school)
        let result = ValidateDescribeFiles.run(["describe", path])
        #expect(result.status == 0)
        let text = result.output
        #expect(text.hasPrefix("\(path): 3 entities, 1 fetch request template, 1 configuration\n"))
        #expect(text.contains("Entity Person (abstract)\n  subentities: Student\n"))
        #expect(text.contains("Entity Student : Person\n"))
        #expect(text.contains("    number  Integer 32, required, default \"0\"\n"))
        #expect(
            text.contains(
                "courses  to-many -> Course, inverse students, delete rule Nullify, optional"))
        #expect(
            text.contains(
                "students  to-many, ordered -> Student, inverse courses, delete rule Cascade"))
        #expect(text.contains("uniqueness constraints: (number)"))
        #expect(
            text.contains("Fetch request templates:\n  byTitle  Course where title == $TITLE\n"))
        #expect(text.contains("Configurations:\n  Local  Course\n"))
    }

    @Test("describe --version-hashes prints sorted name<TAB>base64 lines")
    func describeVersionHashes() throws {
        let files = try ValidateDescribeFiles()
        defer { files.remove() }
        let path = try files.model("School", ValidateDescribeFiles.school)
        let result = ValidateDescribeFiles.run(["describe", "--version-hashes", path])
        #expect(result.status == 0)
        let model = try EntityModel(contentsOf: URL(fileURLWithPath: path))
        let expected = model.entityVersionHashes.sorted { $0.key < $1.key }
        let lines = result.output.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.last == "")  // ends with a newline
        let rows = lines.dropLast().map { $0.split(separator: "\t").map(String.init) }
        #expect(rows.map { $0.first ?? "" } == ["Course", "Person", "Student"])
        #expect(rows.count == expected.count)
        for (row, hash) in zip(rows, expected) {
            #expect(row.count == 2)
            #expect(row.first == hash.key)
            #expect(row.last.flatMap { Data(base64Encoded: $0) } == hash.value)
            #expect(row.last.flatMap { Data(base64Encoded: $0) }?.count == 32)
        }
    }

    @Test("describe of an unreadable model exits 2 with its location")
    func describeUnreadable() throws {
        let files = try ValidateDescribeFiles()
        defer { files.remove() }
        let path = try files.file("contents", "<model>\n<entity name=\"A\">\n</model>")
        let result = ValidateDescribeFiles.run(["describe", path])
        #expect(result.status == 2)
        #expect(result.output.isEmpty)
        #expect(result.errors.hasPrefix("\(path):3:"))
    }

    // MARK: The repository's sample models

    static let samples = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Models")

    @Test(
        "the sample models validate without errors",
        .enabled(if: FileManager.default.fileExists(atPath: samples.path)))
    func sampleModels() throws {
        let bundles = try FileManager.default.contentsOfDirectory(atPath: Self.samples.path)
            .filter { $0.hasSuffix(".xcdatamodeld") }.sorted()
        try #require(!bundles.isEmpty)
        for bundle in bundles {
            let path = Self.samples.appendingPathComponent(bundle).path
            let result = ValidateDescribeFiles.run(["validate", path])
            #expect(result.status == 0, "\(result.output)\(result.errors)")
            #expect(result.output.hasSuffix("\(path): 0 errors, 0 warnings\n"))
            let described = ValidateDescribeFiles.run(["describe", path])
            #expect(described.status == 0)
            #expect(described.output.contains("Entity "))
        }
    }
}
