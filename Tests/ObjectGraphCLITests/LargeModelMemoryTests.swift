import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// A valid model file with a 40 MB attribute value loads and validates in memory bounded by a
/// small multiple of the file: the peak resident size of `objectgraph validate` (its
/// `ru_maxrss`, read with `wait4` for that one child) grows by less than 3.5 times the file
/// over a run on a tiny model. Before issue 20 such a file did not load at all (libxml2's 10 MB
/// limit on a value), and with that limit lifted alone the peak grew by 4.1 times the file.
@Suite("Large model values")
struct LargeModelMemoryTests {
    /// A failed `posix_spawn` or `wait4`, with its error number.
    struct SpawnFailure: Error {
        let call: String
        let code: Int32
    }

    /// The exit status and peak resident size (KB) of `tool arguments`, output discarded.
    static func peakMemory(of tool: URL, _ arguments: [String]) throws -> (
        status: Int32, peakKB: Int
    ) {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        let argv: [UnsafeMutablePointer<CChar>?] = ([tool.path] + arguments).map { strdup($0) }
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, tool.path, &actions, nil, argv + [nil], environ)
        guard spawned == 0 else { throw SpawnFailure(call: "posix_spawn", code: spawned) }
        var status: Int32 = 0
        var usage = rusage()
        while wait4(pid, &status, 0, &usage) < 0 {
            guard errno == EINTR else { throw SpawnFailure(call: "wait4", code: errno) }
        }
        // WIFEXITED / WEXITSTATUS, which Swift does not import.
        let exited = status & 0x7F == 0
        return (exited ? (status >> 8) & 0xFF : -1, Int(usage.ru_maxrss))
    }

    /// Writes `Name.xcdatamodel/contents` with one String attribute whose default is `size`
    /// bytes, and returns the model folder and the file's size.
    static func writeModel(_ name: String, defaultSize size: Int, in folder: URL) throws -> (
        path: String, bytes: Int
    ) {
        let model = folder.appendingPathComponent("\(name).xcdatamodel")
        try FileManager.default.createDirectory(at: model, withIntermediateDirectories: true)
        var xml = Data(
            """
            <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
            <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" \
            lastSavedToolsVersion="23231" systemVersion="24A335" minimumToolsVersion="Automatic" \
            sourceLanguage="Swift" userDefinedModelVersionIdentifier="">
                <entity name="Note" representedClassName="Note" syncable="YES">
                    <attribute name="body" optional="YES" attributeType="String" defaultValueString="
            """.utf8)
        xml.append(Data(repeating: UInt8(ascii: "x"), count: size))
        xml.append(Data("\"/>\n    </entity>\n</model>".utf8))
        try xml.write(to: model.appendingPathComponent("contents"))
        return (model.path, xml.count)
    }

    @Test(
        "a 40 MB default value loads and validates within 3.5 times the file's size",
        .enabled(if: objectgraphTool != nil))
    func fortyMegabyteDefault() throws {
        let tool = try #require(objectgraphTool)
        let files = try ValidateDescribeFiles()
        defer { files.remove() }
        let small = try Self.writeModel("Small", defaultSize: 8, in: files.folder)
        let big = try Self.writeModel("Big", defaultSize: 40 * 1024 * 1024, in: files.folder)
        let baseline = try Self.peakMemory(of: tool, ["validate", small.path])
        let measured = try Self.peakMemory(of: tool, ["validate", big.path])
        #expect(baseline.status == 0)
        #expect(measured.status == 0)
        let growthKB = measured.peakKB - baseline.peakKB
        let fileKB = big.bytes / 1024
        #expect(
            growthKB * 2 < fileKB * 7,
            "peak grew by \(growthKB) KB for a \(fileKB) KB file (baseline \(baseline.peakKB) KB)")
    }
}
