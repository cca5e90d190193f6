import Foundation

extension EntityModel {
    /// The largest model file accepted.
    static let maximumFileSize = 256 * 1024 * 1024

    /// Loads a model from Xcode's files: a `.xcdatamodeld` bundle (its current version, or
    /// `version` when given), a `.xcdatamodel` folder, or a `contents` file.
    ///
    /// ```swift
    /// let model = try EntityModel(contentsOf: URL(fileURLWithPath: "Models/School.xcdatamodeld"))
    /// let v1 = try EntityModel(contentsOf: bundleURL, version: "Library")
    /// ```
    /// - Throws: ``ModelError`` naming the file, line and column.
    public init(contentsOf url: URL, version: String? = nil) throws {
        let path = url.path
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw ModelError(.unreadable, "no such file or folder", file: path)
        }
        if let reason = PathKind.refusal(ofPath: path, accepting: [.regularFile, .directory]) {
            throw ModelError(.unreadable, reason, file: path)
        }
        guard isDirectory.boolValue else {
            if let version {
                throw ModelError(
                    .notAModel, "version '\(version)' was asked for, but this is a single file",
                    file: path)
            }
            self = try EntityModel(contentsOfFile: url)
            return
        }
        let contents = url.appendingPathComponent("contents")
        if FileManager.default.fileExists(atPath: contents.path), !path.hasSuffix(".xcdatamodeld") {
            if let version {
                throw ModelError(
                    .notAModel,
                    "version '\(version)' was asked for, but this is a single model version",
                    file: path)
            }
            self = try EntityModel(contentsOfFile: contents)
            return
        }
        if path.hasSuffix(".xcdatamodel") || url.lastPathComponent.hasSuffix(".xcdatamodel") {
            let legacy = FileManager.default.fileExists(
                atPath: url.appendingPathComponent("elements").path)
            throw ModelError(
                .notAModel,
                legacy
                    ? "this is a legacy binary model (pre-Xcode 4: 'elements' and 'layout', no "
                        + "'contents'); open it in Xcode and save it to convert it"
                    : "the model folder has no 'contents' file",
                file: path)
        }
        let bundle = try ModelBundle(contentsOf: url)
        if let version {
            self = try bundle.model(named: version)
        } else {
            self = try bundle.currentModel()
        }
    }

    /// Reads a model from the XML of a `contents` file. `file` names it in diagnostics.
    /// - Throws: ``ModelError`` naming the line and column.
    public init(xmlData: Data, file: String? = nil) throws {
        self = try ModelXMLReader.read(xmlData, file: file)
    }

    /// Reads one `contents` file.
    init(contentsOfFile url: URL) throws {
        let path = url.path
        if let reason = PathKind.refusal(ofPath: path) {
            throw ModelError(.unreadable, reason, file: path)
        }
        let attributes = try? FileManager.default.attributesOfItem(atPath: path)
        if let size = attributes?[.size] as? Int, size > Self.maximumFileSize {
            throw ModelError(
                .unreadable, "the file is \(size) bytes, more than a model can be", file: path)
        }
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw ModelError(.unreadable, "cannot read the file", file: path)
        }
        self = try ModelXMLReader.read(data, file: path)
    }
}
