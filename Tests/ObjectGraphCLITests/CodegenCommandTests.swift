import Foundation
import ObjectGraphCLI
import Testing

/// `objectgraph codegen`, in process.
@Suite("codegen command")
struct CodegenCommandTests {
    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    private static func run(_ arguments: [String]) -> (status: Int32, io: BufferIO) {
        let io = BufferIO()
        return (CommandLineTool.run(["codegen"] + arguments, io: io), io)
    }

    /// A Class Definition entity.
    static let item = """
        <entity name="Item" representedClassName="Item" codeGenerationType="class">
            <attribute name="title" optional="YES" attributeType="String"/>
        </entity>

        """
    /// A Manual/None entity.
    static let ledger = """
        <entity name="Ledger" representedClassName="Ledger">
            <attribute name="note" optional="YES" attributeType="String"/>
        </entity>

        """

    private static func files(in folder: URL) throws -> [String: String] {
        var result: [String: String] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: folder.path)
        where name.hasSuffix(".swift") {
            result[name] = try String(
                contentsOf: folder.appendingPathComponent(name), encoding: .utf8)
        }
        return result
    }

    @Test("generating the TypedSchool model again gives the checked-in test copy, byte for byte")
    func checkedInCopyIsCurrent() throws {
        let files = try ValidateDescribeFiles()
        defer { files.remove() }
        let model = Self.packageRoot.appendingPathComponent("Models/TypedSchool.xcdatamodeld")
        let output = files.folder.appendingPathComponent("out")
        let result = Self.run([
            "--model", model.path, "--output", output.path, "--access", "internal",
        ])
        #expect(result.status == 0, "\(result.io.errorOutput)")
        let generated = try Self.files(in: output)
        let checkedIn = try Self.files(
            in: Self.packageRoot.appendingPathComponent("Tests/ObjectGraphTests/Generated"))
        #expect(generated.keys.sorted() == checkedIn.keys.sorted())
        for (name, text) in generated {
            #expect(text == checkedIn[name], "\(name) differs: run objectgraph codegen again")
        }
    }

    @Test("each entity's code generation setting decides what is written")
    func codeGenerationSettings() throws {
        let files = try ValidateDescribeFiles()
        defer { files.remove() }
        let model = try files.model(
            "Shop",
            Self.item + """
                <entity name="Order" representedClassName="Order" codeGenerationType="category">
                    <attribute name="total" attributeType="Double" usesScalarValueType="YES"/>
                </entity>
                """ + Self.ledger)
        let output = files.folder.appendingPathComponent("out")
        let result = Self.run(["--model", model, "--output", output.path])
        #expect(result.status == 0)
        let written = try Self.files(in: output)
        #expect(
            written.keys.sorted() == [
                "Item+ObjectGraph.swift", "Order+ObjectGraph.swift", "ShopModelClasses.swift",
            ])
        #expect(
            written["Item+ObjectGraph.swift"]?.contains("public class Item: ManagedObject") == true)
        let order = written["Order+ObjectGraph.swift"] ?? ""
        #expect(
            order.contains("extension Order: GeneratedManagedObject")
                && !order.contains("class Order"))
        #expect(order.contains("public var total: Double {"))
        let all = files.folder.appendingPathComponent("all")
        #expect(Self.run(["--model", model, "--output", all.path, "--all"]).status == 0)
        #expect(try Self.files(in: all)["Ledger+ObjectGraph.swift"] != nil)
    }

    @Test("keywords are escaped and ManagedObject members renamed, with a warning naming them")
    func clashingNames() throws {
        let files = try ValidateDescribeFiles()
        defer { files.remove() }
        let model = try files.model(
            "Clash",
            """
            <entity name="Thing" representedClassName="Thing" codeGenerationType="class">
                <attribute name="default" optional="YES" attributeType="String"/>
                <attribute name="description" optional="YES" attributeType="String"/>
                <attribute name="entity" optional="YES" attributeType="String"/>
                <attribute name="self" optional="YES" attributeType="String"/>
            </entity>
            """)
        let output = files.folder.appendingPathComponent("out")
        let result = Self.run(["--model", model, "--output", output.path])
        #expect(result.status == 0)
        let text = try Self.files(in: output)["Thing+ObjectGraph.swift"] ?? ""
        #expect(text.contains("public var `default`: String?"))
        #expect(text.contains("public var descriptionProperty: String?"))
        #expect(text.contains("public var entityProperty: String?"))
        #expect(text.contains("public var selfProperty: String?"))
        #expect(text.contains("\\Thing.descriptionProperty: \"description\""))
        let warnings = result.io.errorOutput
        #expect(warnings.contains("warning: Thing.default: a Swift keyword"))
        #expect(
            warnings.contains("warning: Thing.description: clashes with a ManagedObject member"))
        #expect(warnings.contains("warning: Thing.entity: clashes"))
    }

    @Test("--single-file writes every class into one named file, even when none is asked for")
    func singleFile() throws {
        let files = try ValidateDescribeFiles()
        defer { files.remove() }
        let model = try files.model("Shop", Self.item + Self.ledger)
        let output = files.folder.appendingPathComponent("out")
        let arguments = ["--model", model, "--output", output.path, "--single-file", "Shop.swift"]
        #expect(Self.run(arguments).status == 0)
        let written = try Self.files(in: output)
        #expect(written.keys.sorted() == ["Shop.swift"])
        let text = written["Shop.swift"] ?? ""
        #expect(text.contains("public class Item: ManagedObject"))
        #expect(text.contains("enum ShopModelClasses") && !text.contains("class Ledger"))
        // Manual/None only: the declared output is still written, with no declarations.
        let none = files.folder.appendingPathComponent("none")
        let noCode = try files.model(
            "Ledgers", Self.ledger)
        let result = Self.run([
            "--model", noCode, "--output", none.path, "--single-file", "L.swift",
        ])
        #expect(result.status == 0)
        #expect(try Self.files(in: none)["L.swift"]?.contains("class") == false)
        #expect(Self.run(["--model", model, "--single-file", "a/b.swift"]).status == 2)
        #expect(Self.run(["--model", model, "--single-file"]).status == 2)
    }

    @Test("usage errors and unreadable models exit 2")
    func usageErrors() {
        #expect(Self.run([]).status == 2)
        #expect(Self.run(["--model"]).status == 2)
        #expect(Self.run(["--model", "/nonexistent/M.xcdatamodel"]).status == 2)
        #expect(Self.run(["--model", "x", "--access", "private"]).status == 2)
        #expect(Self.run(["--bogus"]).status == 2)
    }
}
