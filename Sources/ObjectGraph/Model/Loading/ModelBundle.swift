import Foundation
import KeyedArchive

/// A versioned model bundle (`Foo.xcdatamodeld`): several model versions, one of them current.
///
/// The current version comes from the bundle's `.xccurrentversion`. When that file is missing or
/// empty, a bundle with one version uses it; with several, ObjectGraph picks the version Xcode
/// saved most recently (highest `lastSavedToolsVersion`, then the last in natural name order)
/// and says so in ``diagnostics`` — never by sorting names alone, which picks wrongly for
/// `Foo.xcdatamodel` vs `Foo 2.xcdatamodel` and `v1.9` vs `v1.10`.
///
/// ```swift
/// let bundle = try ModelBundle(contentsOf: URL(fileURLWithPath: "Models/Library.xcdatamodeld"))
/// print(bundle.versionNames, bundle.currentVersionName)
/// let first = try bundle.model(named: "Library")
/// ```
public struct ModelBundle: Sendable {
    /// How the current version was chosen.
    public enum CurrentVersionSource: Sendable, Hashable {
        /// Named by `.xccurrentversion`.
        case recorded
        /// The bundle has a single version.
        case onlyVersion
        /// Chosen by ObjectGraph because nothing names it (the reason is in ``diagnostics``).
        case inferred
    }

    /// The bundle folder.
    public let url: URL
    /// The names of the versions that hold an XML model, without `.xcdatamodel`, in natural order.
    public let versionNames: [String]
    /// Versions in the legacy binary format (pre-Xcode 4: `elements` + `layout`), which cannot
    /// be read.
    public let legacyVersionNames: [String]
    /// The current version's name, without `.xcdatamodel`.
    public let currentVersionName: String
    /// How the current version was chosen.
    public let currentVersionSource: CurrentVersionSource
    /// Findings about the bundle (a missing or unreadable `.xccurrentversion`, an inferred
    /// current version).
    public let diagnostics: [Diagnostic]

    /// Opens a bundle and determines its current version.
    /// - Throws: ``ModelError`` when the folder cannot be listed, holds no readable version, or
    ///   `.xccurrentversion` names a version that is not there.
    public init(contentsOf url: URL) throws {
        self.url = url
        let path = url.path
        let fileManager = FileManager.default
        let entries: [String]
        do {
            entries = try fileManager.contentsOfDirectory(atPath: path)
        } catch {
            throw ModelError(.unreadable, "cannot list the model bundle", file: path)
        }
        var xmlVersions: [String] = []
        var legacyVersions: [String] = []
        for entry in entries where entry.hasSuffix(".xcdatamodel") {
            let name = String(entry.dropLast(".xcdatamodel".count))
            let folder = url.appendingPathComponent(entry)
            if fileManager.fileExists(atPath: folder.appendingPathComponent("contents").path) {
                xmlVersions.append(name)
            } else if fileManager.fileExists(atPath: folder.appendingPathComponent("elements").path)
            {
                legacyVersions.append(name)
            }
        }
        xmlVersions.sort { NaturalOrder.precedes($0, $1) }
        legacyVersions.sort { NaturalOrder.precedes($0, $1) }
        versionNames = xmlVersions
        legacyVersionNames = legacyVersions

        var diagnostics: [Diagnostic] = []
        let currentFile = url.appendingPathComponent(".xccurrentversion")
        let recorded = try Self.recordedVersion(at: currentFile, diagnostics: &diagnostics)
        let currentLocation = SourceLocation(file: currentFile.path, line: 1, column: 1)
        if let recorded {
            if xmlVersions.contains(recorded) {
                currentVersionName = recorded
                currentVersionSource = .recorded
            } else if legacyVersions.contains(recorded) {
                throw ModelError(
                    .notAModel,
                    "the current version '\(recorded)' is in the legacy binary format "
                        + "(pre-Xcode 4), which ObjectGraph cannot read; open it in Xcode and save it",
                    location: currentLocation)
            } else {
                throw ModelError(
                    .missingVersion,
                    "the current version '\(recorded).xcdatamodel' named by .xccurrentversion is not "
                        + "in the bundle (versions: \(Self.list(xmlVersions + legacyVersions)))",
                    location: currentLocation)
            }
        } else if xmlVersions.count == 1, let only = xmlVersions.first {
            currentVersionName = only
            currentVersionSource = .onlyVersion
        } else if xmlVersions.isEmpty {
            let detail =
                legacyVersions.isEmpty
                ? "the bundle holds no model version"
                : "the bundle holds only legacy binary versions (\(Self.list(legacyVersions))), "
                    + "which ObjectGraph cannot read"
            throw ModelError(.notAModel, detail, file: path)
        } else {
            let (chosen, tools) = Self.mostRecentlySaved(xmlVersions, in: url)
            currentVersionName = chosen
            currentVersionSource = .inferred
            let why =
                tools.map { "saved by the newest Xcode (lastSavedToolsVersion \($0))" }
                ?? "last in natural name order"
            diagnostics.append(
                Diagnostic(
                    .warning, "current-version-inferred",
                    "no current version is recorded for \(xmlVersions.count) versions; using '\(chosen)', "
                        + "\(why)", location: currentLocation))
        }
        self.diagnostics = diagnostics
    }

    /// Loads the version named `name` (with or without `.xcdatamodel`).
    public func model(named name: String) throws -> EntityModel {
        let bare = name.hasSuffix(".xcdatamodel") ? String(name.dropLast(12)) : name
        guard versionNames.contains(bare) else {
            throw ModelError(
                .missingVersion,
                "no version '\(bare)' in the bundle (versions: \(Self.list(versionNames)))",
                file: url.path)
        }
        let contents = url.appendingPathComponent(bare + ".xcdatamodel")
            .appendingPathComponent("contents")
        return try EntityModel(contentsOfFile: contents)
    }

    /// Loads the current version, with the bundle's findings added to its load diagnostics.
    public func currentModel() throws -> EntityModel {
        var model = try model(named: currentVersionName)
        model.loadDiagnostics = diagnostics + model.loadDiagnostics
        return model
    }

    // MARK: - Choosing the current version

    private static func recordedVersion(
        at file: URL, diagnostics: inout [Diagnostic]
    ) throws -> String? {
        guard FileManager.default.fileExists(atPath: file.path) else { return nil }
        let location = SourceLocation(file: file.path, line: 1, column: 1)
        if let reason = PathKind.refusal(ofPath: file.path) {
            throw ModelError(.unreadable, ".xccurrentversion: \(reason)", location: location)
        }
        guard let data = try? Data(contentsOf: file) else {
            throw ModelError(.unreadable, "cannot read .xccurrentversion", location: location)
        }
        guard let recorded = currentVersionEntry(in: data) else {
            diagnostics.append(
                Diagnostic(
                    .warning, "unreadable-current-version",
                    ".xccurrentversion is not a property list dictionary; ignored",
                    location: location))
            return nil
        }
        guard let name = recorded, !name.trimmingCharacters(in: .whitespaces).isEmpty
        else {
            return nil
        }
        return name.hasSuffix(".xcdatamodel") ? String(name.dropLast(12)) : name
    }

    /// `_XCCurrentVersionName` of a `.xccurrentversion` property list: `nil` when the bytes are
    /// not a property list dictionary, `.some(nil)` when it names no version. A binary list is
    /// read by the checked ``BinaryPropertyList`` decoder (Foundation's traps on some damaged
    /// binary lists), an XML one by `PropertyListSerialization`.
    private static func currentVersionEntry(in data: Data) -> String?? {
        let key = "_XCCurrentVersionName"
        if data.starts(with: Array("bplist".utf8)) {
            guard case .dictionary(let entries)? = try? BinaryPropertyList.decode(data) else {
                return nil
            }
            return .some(entries[key]?.string)
        }
        let plist = try? PropertyListSerialization.propertyList(from: data, format: nil)
        guard let dictionary = plist as? [String: Any] else { return nil }
        return .some(dictionary[key] as? String)
    }

    /// The version with the highest `lastSavedToolsVersion`; ties go to the last in natural
    /// order. Versions that cannot be read count as oldest.
    private static func mostRecentlySaved(
        _ versions: [String], in bundle: URL
    ) -> (name: String, tools: String?) {
        var best: (name: String, tools: [Int], text: String?)?
        for name in versions {
            let contents = bundle.appendingPathComponent(name + ".xcdatamodel")
                .appendingPathComponent("contents")
            let model = try? EntityModel(contentsOfFile: contents)
            let text = model?.header.lastSavedToolsVersion
            let tools = text.map(toolsVersion) ?? []
            if let current = best, tools.lexicographicallyPrecedes(current.tools) { continue }
            best = (name, tools, text)
        }
        return (best?.name ?? versions.last ?? "", best?.text)
    }

    private static func toolsVersion(_ text: String) -> [Int] {
        text.split(separator: ".").map { Int($0) ?? 0 }
    }

    private static func list(_ names: [String]) -> String {
        names.isEmpty ? "none" : names.map { "'\($0)'" }.joined(separator: ", ")
    }
}

/// Orders names the way people read version numbers: runs of digits compare by value
/// (`v1.9` < `v1.10`, `Model` < `Model 2`).
enum NaturalOrder {
    /// Whether `lhs` sorts before `rhs`.
    static func precedes(_ lhs: String, _ rhs: String) -> Bool {
        let left = tokens(lhs)
        let right = tokens(rhs)
        for (a, b) in zip(left, right) where a != b {
            switch (a, b) {
            case (.number(let x), .number(let y)): return x < y
            case (.number, .text): return true
            case (.text, .number): return false
            case (.text(let x), .text(let y)): return x < y
            }
        }
        return left.count < right.count
    }

    private enum Token: Equatable {
        case number(Int)
        case text(String)
    }

    private static func tokens(_ text: String) -> [Token] {
        var result: [Token] = []
        var current = ""
        var inDigits = false
        func flush() {
            guard !current.isEmpty else { return }
            if inDigits, let value = Int(current) {
                result.append(.number(value))
            } else {
                result.append(.text(current))
            }
            current = ""
        }
        for character in text {
            let isDigit = character.isASCII && character.isNumber
            if isDigit != inDigits { flush() }
            inDigits = isDigit
            current.append(character)
        }
        flush()
        return result
    }
}
