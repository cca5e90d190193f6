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
    /// - Throws: ``ModelWriteError`` naming the path that could not be written and why, also
    ///   (before anything is written) when a Date attribute's default, minimum or maximum is
    ///   infinite or NaN, which a model file cannot hold (it would read back as no value).
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
        if let problem = unwritableDateInterval() {
            throw ModelWriteError(path: target.contentsFile.path, reason: problem)
        }
        for folder in target.folders {
            try ModelFileTarget.createFolder(folder)
        }
        try ModelFileTarget.write(xmlData(), to: target.contentsFile)
        if let currentVersion = target.currentVersionFile, let currentVersionPlist {
            try ModelFileTarget.write(currentVersionPlist, to: currentVersion)
        }
    }

    /// `Entity.attribute: defaultDateTimeInterval nan …` for the first Date default, minimum or
    /// maximum that is not a finite number (model readers drop those), or `nil`.
    private func unwritableDateInterval() -> String? {
        let owners =
            entities.map { ($0.name, $0.attributes) } + composites.map { ($0.name, $0.attributes) }
        for (owner, attributes) in owners {
            for attribute in attributes {
                let intervals = [
                    ("defaultDateTimeInterval", attribute.defaultDateTimeInterval),
                    ("minDateTimeInterval", attribute.minDateTimeInterval),
                    ("maxDateTimeInterval", attribute.maxDateTimeInterval),
                ]
                for case (let field, let value?) in intervals where !value.isFinite {
                    return "\(owner).\(attribute.name): \(field) \(value) is not a finite number"
                        + " of seconds, which a model file cannot hold"
                }
            }
        }
        return nil
    }
}
