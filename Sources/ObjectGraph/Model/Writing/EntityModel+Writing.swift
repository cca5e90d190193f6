import Foundation

extension EntityModel {
    /// The model as the XML of a `contents` file, in the exact format Xcode writes: the XML
    /// declaration, 4-space indent, Xcode's attribute and element order, and no final newline.
    ///
    /// A model loaded from an Xcode file and written back usually gives the same bytes.
    ///
    /// ```swift
    /// let model = EntityModel(entities: [
    ///     Entity("Person", attributes: [Attribute("name", type: .string)])
    /// ])
    /// let xml = String(decoding: model.xmlData(), as: UTF8.self)
    /// ```
    public func xmlData() -> Data {
        Data(ModelXMLWriter(model: self).document().utf8)
    }

    /// Writes the model to disk, atomically, in Xcode's format.
    ///
    /// What is written depends on the path:
    /// - `Foo.xcdatamodeld`: a bundle holding `Foo.xcdatamodel/contents` and a `.xccurrentversion`
    ///   naming `Foo.xcdatamodel` (other versions already in the bundle are left alone);
    /// - `Foo.xcdatamodel`: the folder and its `contents` file;
    /// - anything else: that file, holding the XML.
    ///
    /// Missing parent folders are created.
    ///
    /// ```swift
    /// try model.write(to: URL(fileURLWithPath: "Models/School.xcdatamodeld"))
    /// ```
    /// - Throws: ``ModelWriteError`` naming the path that could not be written and why.
    public func write(to url: URL) throws {
        let target = ModelFileTarget(url)
        // Worked out first, so a version name XML cannot hold leaves nothing half-written.
        var currentVersionPlist: Data?
        if let currentVersion = target.currentVersionFile {
            do {
                currentVersionPlist = try ModelFileTarget.currentVersionPlist(
                    naming: target.versionName)
            } catch {
                throw ModelWriteError(
                    path: currentVersion.path,
                    reason: "cannot name the current version: its name holds \(error)")
            }
        }
        for folder in target.folders {
            try ModelFileTarget.createFolder(folder)
        }
        try ModelFileTarget.write(xmlData(), to: target.contentsFile)
        if let currentVersion = target.currentVersionFile, let currentVersionPlist {
            try ModelFileTarget.write(currentVersionPlist, to: currentVersion)
        }
    }
}
