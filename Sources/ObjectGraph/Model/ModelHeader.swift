/// The attributes of the `<model>` element: which Xcode wrote the file and for what.
///
/// They do not change what the model means; they are kept so a written model matches its source.
public struct ModelHeader: Sendable, Hashable {
    /// `type`, always `com.apple.IDECoreDataModeler.DataModel` in Xcode files.
    public var type: String?
    /// `documentVersion`, always `1.0` in Xcode files.
    public var documentVersion: String?
    /// `lastSavedToolsVersion`: the Xcode build that last saved the file (`22758`, `14315.12.1`).
    public var lastSavedToolsVersion: String?
    /// `systemVersion`: the macOS build Xcode ran on.
    public var systemVersion: String?
    /// `minimumToolsVersion` (`Automatic`, `Xcode 7.3`, …).
    public var minimumToolsVersion: String?
    /// `sourceLanguage` (`Swift` or `Objective-C`).
    public var sourceLanguage: String?
    /// `usedWithCloudKit` as written (`YES`, `NO`, `true`, `false`).
    public var usedWithCloudKit: String?
    /// `usedWithSwiftData` as written.
    public var usedWithSwiftData: String?
    /// `name`, only in Xcode 4-era files.
    public var name: String?
    /// `macOSVersion`, only in older files.
    public var macOSVersion: String?
    /// `iOSVersion`, only in older files.
    public var iOSVersion: String?
    /// XML attributes this version does not know.
    public var unknownXMLAttributes: [String: String]

    /// A header as a current Xcode writes it.
    public init() {
        type = "com.apple.IDECoreDataModeler.DataModel"
        documentVersion = "1.0"
        lastSavedToolsVersion = "23788"
        systemVersion = "24A335"
        minimumToolsVersion = "Automatic"
        sourceLanguage = "Swift"
        unknownXMLAttributes = [:]
    }

    /// An empty header: no attributes at all.
    public static var empty: ModelHeader {
        var header = ModelHeader()
        header.type = nil
        header.documentVersion = nil
        header.lastSavedToolsVersion = nil
        header.systemVersion = nil
        header.minimumToolsVersion = nil
        header.sourceLanguage = nil
        return header
    }

    /// Whether the model is used with CloudKit (`YES` or `true`).
    public var isUsedWithCloudKit: Bool {
        usedWithCloudKit == "YES" || usedWithCloudKit == "true"
    }
}
