import Foundation
import KeyedArchive
import Testing

@testable import ObjectGraph

/// Damaged binary property lists in store metadata and model bundles are refused with an
/// error, never handed to Foundation's reader (which traps on a set holding a dictionary).
@Suite("Damaged binary property lists")
struct DamagedMetadataListTests {
    /// A binary property list whose dictionary holds a set of a dictionary: valid by the format,
    /// but Foundation's `PropertyListSerialization` crashes bridging it.
    static let setOfDictionary = BinaryPropertyList.encode(
        .dictionary([
            "NSStoreType": .string("SQLite"),
            "Damaged": .set([.dictionary([:])]),
        ]))

    @Test("store metadata holding a set of a dictionary is an error naming the set")
    func metadataWithSet() {
        #expect {
            _ = try StoreMetadata(storeUUID: "U", propertyList: Self.setOfDictionary)
        } throws: { error in
            (error as? StoreMetadataError)?.description.contains("set") == true
        }
    }

    @Test("binary metadata is still read through the checked decoder")
    func binaryMetadataReads() throws {
        let list = BinaryPropertyList.encode(
            .dictionary([
                "NSStoreType": .string("SQLite"),
                "NSPersistenceFrameworkVersion": .integer(1145),
                "Extra": .array([.bool(true), .real(1.5)]),
            ]))
        let metadata = try StoreMetadata(storeUUID: "U", propertyList: list)
        #expect(metadata.storeType == "SQLite")
        #expect(metadata.frameworkVersion == 1145)
        #expect(metadata.additionalEntries["Extra"] == .array([.bool(true), .real(1.5)]))
    }

    @Test("a binary .xccurrentversion holding a set of a dictionary is a warning, not a crash")
    func currentVersionWithSet() throws {
        let folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("damaged-current-\(UUID().uuidString)")
        let bundle = folder.appendingPathComponent("M.xcdatamodeld")
        defer { try? FileManager.default.removeItem(at: folder) }
        let version = bundle.appendingPathComponent("M.xcdatamodel")
        try FileManager.default.createDirectory(at: version, withIntermediateDirectories: true)
        let contents = """
            <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
            <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0">
                <entity name="Note" representedClassName="Note">
                    <attribute name="title" optional="YES" attributeType="String"/>
                </entity>
            </model>
            """
        try Data(contents.utf8).write(to: version.appendingPathComponent("contents"))
        let damaged = BinaryPropertyList.encode(
            .dictionary([
                "_XCCurrentVersionName": .string("M.xcdatamodel"),
                "Damaged": .set([.dictionary([:])]),
            ]))
        try damaged.write(to: bundle.appendingPathComponent(".xccurrentversion"))
        let loaded = try ModelBundle(contentsOf: bundle)
        #expect(loaded.currentVersionName == "M")
    }
}
