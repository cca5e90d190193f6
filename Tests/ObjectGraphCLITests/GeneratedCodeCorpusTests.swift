import Foundation
import ObjectGraphCLI
import Testing

/// The code `objectgraph codegen --all` writes for every model of `../shared/corpus/xcdatamodel`
/// (or the corpus `OBJECTGRAPH_CORPUS` names) type-checks in Swift 6 mode without a warning,
/// against the ObjectGraph module this build made. Skipped when the corpus or the module is
/// absent.
@Suite("Generated code type-checks for the corpus")
struct GeneratedCodeCorpusTests {
    static let packageRoot = CodegenCommandTests.packageRoot

    static let corpus: URL? = {
        let environment = ProcessInfo.processInfo.environment["OBJECTGRAPH_CORPUS"]
        let url =
            environment.map { URL(fileURLWithPath: $0) }
            ?? packageRoot.deletingLastPathComponent().appendingPathComponent("shared/corpus")
        return FileManager.default.fileExists(atPath: url.path) ? url : nil
    }()

    /// The folder with `ObjectGraph.swiftmodule`: `Modules` beside the test binary, else in
    /// `.build/debug`.
    static let modules: URL? = {
        let binary = URL(fileURLWithPath: CommandLine.arguments.first ?? "")
        var candidates = [packageRoot.appendingPathComponent(".build/debug/Modules")]
        var folder = binary.deletingLastPathComponent()
        for _ in 0..<4 {
            candidates.insert(folder.appendingPathComponent("Modules"), at: 0)
            folder.deleteLastPathComponent()
        }
        return candidates.first {
            FileManager.default.fileExists(
                atPath: $0.appendingPathComponent("ObjectGraph.swiftmodule").path)
        }
    }()

    static var isAvailable: Bool { corpus != nil && modules != nil }

    /// Every model version (`.xcdatamodel` folder) under the corpus's `xcdatamodel` folder.
    static func modelVersions(in corpus: URL) -> [URL] {
        let root = corpus.appendingPathComponent("xcdatamodel")
        guard let walker = FileManager.default.enumerator(atPath: root.path) else { return [] }
        var result: [URL] = []
        while let next = walker.nextObject() as? String {
            if next.hasSuffix("/contents") {
                result.append(root.appendingPathComponent(next).deletingLastPathComponent())
            }
        }
        return result.sorted { $0.path < $1.path }
    }

    @Test(
        "every corpus model generates code that type-checks in Swift 6 mode, warning-free",
        .enabled(if: isAvailable))
    func typeChecks() throws {
        guard let corpus = Self.corpus, let modules = Self.modules else { return }
        let versions = Self.modelVersions(in: corpus)
        #expect(!versions.isEmpty)
        let temporary = FileManager.default.temporaryDirectory
            .appendingPathComponent("objectgraph-codegen-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: temporary) }
        var checkedTexts: Set<[String]> = []
        for (index, version) in versions.enumerated() {
            let output = temporary.appendingPathComponent("\(index)")
            let io = BufferIO()
            let status = CommandLineTool.run(
                ["codegen", "--model", version.path, "--output", output.path, "--all"], io: io)
            #expect(status == 0, "\(version.path): \(io.errorOutput)")
            let names = try FileManager.default.contentsOfDirectory(atPath: output.path).sorted()
            let texts = try names.map {
                try String(contentsOf: output.appendingPathComponent($0), encoding: .utf8)
            }
            // Model versions often generate the same code: check each text once.
            guard checkedTexts.insert(texts).inserted else { continue }
            let stubs = Self.stubs(forWarnings: io.errorOutput)
            try Data(stubs.utf8).write(to: output.appendingPathComponent("Stubs.swift"))
            let diagnostics = try Self.typeCheck(
                folder: output, files: names + ["Stubs.swift"], modules: modules)
            #expect(diagnostics.isEmpty, "\(version.path):\n\(diagnostics)")
        }
    }

    /// `public struct Name: Codable, Sendable {}` for each type a transformable attribute was
    /// assumed to be, and the classes of Category/Extension entities (the app declares them).
    static func stubs(forWarnings warnings: String) -> String {
        var names: Set<String> = []
        for line in warnings.split(separator: "\n")
        where line.hasSuffix("it must be Codable & Sendable") {
            guard let start = line.range(of: "typed as '"),
                let end = line.range(of: "':", range: start.upperBound..<line.endIndex)
            else { continue }
            let expression = line[start.upperBound..<end.lowerBound]
            for name in expression.split(whereSeparator: { "[]:<>?, ".contains($0) })
            where name.first?.isUppercase == true && !Self.standardTypes.contains(String(name)) {
                names.insert(String(name))
            }
        }
        let classes = warnings.split(separator: "\n").compactMap { line in
            line.range(of: "write its class: ").map { "public " + line[$0.upperBound...] + "\n" }
        }
        return "import Foundation\nimport ObjectGraph\n" + classes.joined()
            + names.sorted().map { "public struct \($0): Codable, Sendable {}\n" }.joined()
    }

    static let standardTypes: Set<String> = [
        "String", "Int", "Int8", "Int16", "Int32", "Int64", "UInt", "UInt8", "UInt16", "UInt32",
        "UInt64", "Double", "Float", "Bool", "Date", "Data", "URL", "UUID", "Decimal", "Character",
        "Set", "Array", "Dictionary", "Optional",
    ]

    /// Runs `swiftc -typecheck -swift-version 6` on `files`; returns what it printed (empty:
    /// no error, no warning).
    static func typeCheck(folder: URL, files: [String], modules: URL) throws -> String {
        let sources = packageRoot.appendingPathComponent("Sources")
        var arguments = [
            "swiftc", "-typecheck", "-swift-version", "6", "-module-name", "Generated",
        ]
        arguments += ["-I", modules.path]
        for library in ["CSQLite", "CLibXML2", "COpenSSL", "CLibPQ"] {
            arguments += ["-I", sources.appendingPathComponent(library).path]
        }
        arguments += ["-Xcc", "-I/usr/include/libxml2", "-Xcc", "-I/usr/include/postgresql"]
        arguments += files.map { folder.appendingPathComponent($0).path }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let text = String(decoding: output, as: UTF8.self)
        if process.terminationStatus != 0 && text.isEmpty {
            return "swiftc exited with \(process.terminationStatus)"
        }
        return text
    }
}
