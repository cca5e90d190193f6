import Foundation

extension EntityModel {
    /// Loads a model from Xcode's files: a `.xcdatamodeld` bundle (its current version, or
    /// `version` when given), a `.xcdatamodel` folder, or a `contents` file.
    ///
    /// ```swift
    /// let model = try EntityModel(contentsOf: URL(fileURLWithPath: "Models/School.xcdatamodeld"))
    /// let v1 = try EntityModel(contentsOf: bundleURL, version: "School")
    /// ```
    /// - Throws: ``ModelError`` naming the file, line and column.
    public init(contentsOf url: URL, version: String? = nil) throws {
        throw ModelError(.unreadable, "not implemented yet", file: url.path)
    }

    /// Reads a model from the XML of a `contents` file. `file` names it in diagnostics.
    /// - Throws: ``ModelError`` naming the line and column.
    public init(xmlData: Data, file: String? = nil) throws {
        throw ModelError(.unreadable, "not implemented yet", location: nil)
    }
}
