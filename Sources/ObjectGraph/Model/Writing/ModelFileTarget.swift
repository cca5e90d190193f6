import Archive
import Foundation

/// Where ``EntityModel/write(to:)`` puts a model: the files and folders a path stands for.
struct ModelFileTarget {
    /// Folders to create (outermost first).
    let folders: [URL]
    /// The file that receives the XML.
    let contentsFile: URL
    /// The bundle's `.xccurrentversion`, when writing a bundle.
    let currentVersionFile: URL?
    /// The version folder's name (`Foo.xcdatamodel`), for `.xccurrentversion`.
    let versionName: String

    /// Works out the layout for `url` from its extension.
    init(_ url: URL) {
        let url = url.standardizedFileURL
        switch url.pathExtension {
        case "xcdatamodeld":
            let base = url.deletingPathExtension().lastPathComponent
            let version = url.appendingPathComponent(base + ".xcdatamodel", isDirectory: true)
            folders = [url, version]
            contentsFile = version.appendingPathComponent("contents", isDirectory: false)
            currentVersionFile = url.appendingPathComponent(
                ".xccurrentversion", isDirectory: false)
            versionName = version.lastPathComponent
        case "xcdatamodel":
            folders = [url]
            contentsFile = url.appendingPathComponent("contents", isDirectory: false)
            currentVersionFile = nil
            versionName = url.lastPathComponent
        default:
            folders = [url.deletingLastPathComponent()]
            contentsFile = url
            currentVersionFile = nil
            versionName = url.lastPathComponent
        }
    }

    /// The standard `.xccurrentversion` plist naming `versionName`: one tab of indent and a
    /// final newline, byte for byte what Xcode writes. The name is escaped as XML element text
    /// (``XMLEscaping``).
    ///
    /// - Throws: ``XMLEscaping/UnrepresentableCharacter`` when the name holds a character XML
    ///   1.0 cannot hold.
    static func currentVersionPlist(naming versionName: String)
        throws(XMLEscaping.UnrepresentableCharacter) -> Data
    {
        let escapedName = try XMLEscaping.escaped(versionName, as: .text)
        let lines = [
            #"<?xml version="1.0" encoding="UTF-8"?>"#,
            #"<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "#
                + #""http://www.apple.com/DTDs/PropertyList-1.0.dtd">"#,
            #"<plist version="1.0">"#,
            "<dict>",
            "\t<key>_XCCurrentVersionName</key>",
            "\t<string>\(escapedName)</string>",
            "</dict>",
            "</plist>",
        ]
        return Data((lines.joined(separator: "\n") + "\n").utf8)
    }

    /// Creates `folder` and its parents unless it is already a folder.
    static func createFolder(_ folder: URL) throws {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: folder.path, isDirectory: &isDirectory) {
            guard isDirectory.boolValue else {
                throw ModelWriteError(
                    path: folder.path, reason: "a file is in the way of the folder to create")
            }
            return
        }
        do {
            try FileManager.default.createDirectory(
                at: folder, withIntermediateDirectories: true)
        } catch {
            throw ModelWriteError(
                path: folder.path, reason: "cannot create the folder (\(Self.describe(error)))")
        }
    }

    /// Writes `data` to `file` atomically: a ``StagedFile`` beside it, flushed and renamed into
    /// place. A failure leaves the old file and no temporary one; the temporary file of a
    /// writer that was killed is removed by the next write of `file`.
    static func write(_ data: Data, to file: URL) throws {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: file.path, isDirectory: &isDirectory),
            isDirectory.boolValue
        {
            throw ModelWriteError(path: file.path, reason: "a folder is in the way of the file")
        }
        do {
            try StagedFile.write(data, to: file)
        } catch {
            throw ModelWriteError(
                path: file.path, reason: "cannot write the file (\(error.reason))")
        }
    }

    private static func describe(_ error: any Error) -> String {
        if let cocoa = error as? CocoaError,
            let underlying = cocoa.userInfo[NSUnderlyingErrorKey] as? NSError
        {
            return underlying.localizedDescription
        }
        return error.localizedDescription
    }
}
