import Foundation

extension BinaryPropertyList {
    /// Checks that `data` is a binary property list Foundation's `PropertyListSerialization`
    /// and `PropertyListDecoder` can be handed safely: well formed (every check of
    /// ``decode(_:)``), no sets and no keyed-archive references (Foundation's reader crashes
    /// bridging a set that holds a dictionary; plain lists never hold either), and no container
    /// inside two others (Foundation reads a shared container again at each use, so a few
    /// hundred bytes could stand for billions of values; Core Foundation never writes one).
    ///
    /// ```swift
    /// if data.starts(with: Array("bplist".utf8)) { try BinaryPropertyList.checkPlainList(data) }
    /// let object = try PropertyListSerialization.propertyList(from: data, format: nil)
    /// ```
    /// - Throws: ``KeyedArchiveError/malformedPropertyList(offset:reason:)`` naming the object's
    ///   byte.
    public static func checkPlainList(_ data: Data) throws(KeyedArchiveError) {
        var reader = try PropertyListTableReader(bytes: [UInt8](data))
        let entries = try reader.entries()
        let offsets = reader.offsets
        var containerUses = [Int](repeating: 0, count: entries.count)
        for (index, entry) in entries.enumerated() {
            switch entry {
            case .set:
                throw .malformedPropertyList(
                    offset: offsets[index],
                    reason: "object \(index) is a set; plain lists hold none")
            case .uid:
                throw .malformedPropertyList(
                    offset: offsets[index],
                    reason: "object \(index) is a keyed-archive reference; plain lists hold none")
            default:
                break
            }
            for child in entry.references where entries[child].referenceCount > 0 {
                containerUses[child] += 1
                guard containerUses[child] == 1 else {
                    throw .malformedPropertyList(
                        offset: offsets[child],
                        reason: "container \(child) is inside more than one container")
                }
            }
        }
        _ = try decode(data)
    }
}
