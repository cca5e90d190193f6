import Foundation
import Testing

@testable import ObjectGraph

/// Damaged files, files of other formats and newer format versions give a ``StoreError`` naming
/// the file; they never crash and never load part of a graph.
@Suite("Binary store corruption")
struct BinaryCorruptionTests {
    /// A folder with a small valid binary store, its bytes and its section boundaries.
    struct Fixture {
        let folder: URL
        let url: URL
        let bytes: [UInt8]
        /// (tag, start, end) of the header, each section and the trailer.
        let sections: [(tag: String, start: Int, end: Int)]

        init(size: Int = 30) throws {
            folder = try TestSupport.makeTemporaryFolder()
            url = folder.appendingPathComponent("League.objectgraph")
            let context = try AtomicStoreTestSupport.open(.binary, at: url)
            try AtomicStoreTestSupport.populate(context, size: size, seed: 7)
            bytes = [UInt8](try Data(contentsOf: url))
            var sections: [(String, Int, Int)] = [("header", 0, 16)]
            var offset = 16
            while offset + 12 <= bytes.count - 16 {
                let tag = String(decoding: bytes[offset..<(offset + 4)], as: UTF8.self)
                var length = 0
                for index in 0..<8 { length |= Int(bytes[offset + 4 + index]) << (8 * index) }
                sections.append((tag, offset, offset + 12 + length + 4))
                offset += 12 + length + 4
            }
            sections.append(("trailer", offset, bytes.count))
            self.sections = sections
        }

        func remove() { TestSupport.removeTemporaryFolder(folder) }

        /// Writes `bytes` as a store file and opens it; returns the error it gives.
        func open(_ bytes: [UInt8], name: String = "Damaged.objectgraph") -> (any Error)? {
            let target = folder.appendingPathComponent(name)
            do {
                try Data(bytes).write(to: target)
                _ = try AtomicStoreTestSupport.open(.binary, at: target)
                return nil
            } catch {
                return error
            }
        }

        /// Expects `bytes` to be refused with a store error naming the file.
        func expectRefused(
            _ bytes: [UInt8], _ what: String,
            sourceLocation: Testing.SourceLocation = #_sourceLocation
        ) -> StoreError? {
            let target = folder.appendingPathComponent("Damaged.objectgraph")
            guard let error = open(bytes) else {
                Issue.record("\(what): the damaged file opened", sourceLocation: sourceLocation)
                return nil
            }
            guard let storeError = error as? StoreError else {
                Issue.record("\(what): not a StoreError: \(error)", sourceLocation: sourceLocation)
                return nil
            }
            #expect(
                storeError.description.hasPrefix(target.path), "\(what)",
                sourceLocation: sourceLocation)
            #expect(
                (try? Data(contentsOf: target)) == Data(bytes), "\(what): the file was changed",
                sourceLocation: sourceLocation)
            return storeError
        }
    }

    @Test("the fixture has the header, four sections and the trailer")
    func fixtureLayout() throws {
        let fixture = try Fixture()
        defer { fixture.remove() }
        #expect(
            fixture.sections.map(\.tag) == ["header", "META", "ENTS", "OBJS", "RELS", "trailer"])
        #expect(fixture.sections.last?.end == fixture.bytes.count)
        #expect(fixture.open(fixture.bytes) == nil)
    }

    @Test("truncating at every section boundary, and around it, names the section")
    func truncateAtBoundaries() throws {
        let fixture = try Fixture()
        defer { fixture.remove() }
        for section in fixture.sections {
            for cut in [
                section.start - 1, section.start, section.start + 1, section.start + 4,
                section.start + 12, section.end - 4, section.end - 1,
            ]
            where cut >= 0 && cut < fixture.bytes.count {
                let error = fixture.expectRefused(
                    Array(fixture.bytes.prefix(cut)), "cut at \(cut) (\(section.tag))")
                if case .corruptFile(_, _, let offset, _)? = error {
                    #expect(offset <= cut, "cut at \(cut): offset \(offset)")
                }
            }
        }
        let error = fixture.expectRefused(
            Array(fixture.bytes.prefix(fixture.sections[3].start)), "cut before OBJS")
        guard case .corruptFile(_, let section, let offset, let reason)? = error else {
            Issue.record("expected corruptFile, got \(String(describing: error))")
            return
        }
        #expect(section == "OBJS")
        #expect(offset == fixture.sections[3].start)
        #expect(reason.contains("truncated"))
    }

    @Test("truncating at many offsets is always refused")
    func truncateEverywhere() throws {
        let fixture = try Fixture(size: 12)
        defer { fixture.remove() }
        for cut in stride(from: 0, to: fixture.bytes.count, by: 3) {
            _ = fixture.expectRefused(Array(fixture.bytes.prefix(cut)), "cut at \(cut)")
        }
        _ = fixture.expectRefused(fixture.bytes + [0], "one byte appended")
    }

    @Test("changing a byte anywhere in any section is detected by its checksum")
    func flipBytes() throws {
        let fixture = try Fixture()
        defer { fixture.remove() }
        var random = SeededRandom(seed: 42)
        for section in fixture.sections {
            var offsets = [section.start, section.end - 1, (section.start + section.end) / 2]
            for _ in 0..<20 {
                offsets.append(section.start + random.next(section.end - section.start))
            }
            for offset in offsets {
                var bytes = fixture.bytes
                bytes[offset] ^= UInt8(1 + random.next(255))
                _ = fixture.expectRefused(bytes, "byte \(offset) of \(section.tag) changed")
            }
        }
        var bytes = fixture.bytes
        let objects = fixture.sections[3]
        bytes[objects.start + 20] ^= 0x40
        let error = fixture.expectRefused(bytes, "OBJS payload")
        guard case .corruptFile(_, let section, _, let reason)? = error else {
            Issue.record("expected corruptFile, got \(String(describing: error))")
            return
        }
        #expect(section == "OBJS")
        #expect(reason.contains("checksum"))
    }

    @Test("garbage behind valid checksums is refused by bounds checks, never a crash")
    func garbageWithValidChecksums() throws {
        let fixture = try Fixture(size: 15)
        defer { fixture.remove() }
        var random = SeededRandom(seed: 9)
        var refused = 0
        for round in 0..<400 {
            var bytes = fixture.bytes
            let section = fixture.sections[1 + random.next(4)]
            let payload = (section.start + 12)..<(section.end - 4)
            guard !payload.isEmpty else { continue }
            for _ in 0..<(1 + random.next(4)) {
                let offset = payload.lowerBound + random.next(payload.count)
                bytes[offset] = round % 3 == 0 ? 0xFF : UInt8(random.next(256))
            }
            let crc = CRC32.checksum(Array(bytes[section.start..<(section.end - 4)]))
            for index in 0..<4 {
                bytes[section.end - 4 + index] = UInt8(truncatingIfNeeded: crc >> (8 * index))
            }
            guard let error = fixture.open(bytes) else { continue }
            #expect(error is StoreError, "round \(round): \(error)")
            refused += 1
        }
        #expect(refused > 100)
    }

    @Test("a wrong magic number, a future version, an empty file are refused clearly")
    func headerProblems() throws {
        let fixture = try Fixture(size: 5)
        defer { fixture.remove() }
        var bytes = fixture.bytes
        bytes[1] = UInt8(ascii: "X")
        let magic = fixture.expectRefused(bytes, "wrong magic")
        #expect(magic?.description.contains("not an ObjectGraph binary store") == true)

        bytes = fixture.bytes
        bytes[8] = 2
        let future = fixture.expectRefused(bytes, "future version")
        #expect(future?.description.contains("format version 2") == true)
        #expect(future?.description.contains("newer") == true)

        let empty = fixture.expectRefused([], "empty file")
        #expect(empty?.description.contains("empty") == true)
    }

    @Test("a SQLite store or an XML file opened as a binary store says what it is")
    func otherFormats() throws {
        let fixture = try Fixture(size: 5)
        defer { fixture.remove() }
        let sqliteURL = fixture.folder.appendingPathComponent("League.sqlite")
        let context = try AtomicStoreTestSupport.open(.sqlite, at: sqliteURL)
        try context.insert("Team").set("Red", for: "name")
        try context.save()
        let sqlite = fixture.expectRefused([UInt8](try Data(contentsOf: sqliteURL)), "SQLite file")
        #expect(sqlite?.description.contains("SQLite database") == true)

        let xml = Array(
            "<?xml version=\"1.0\"?>\n<!DOCTYPE database SYSTEM \"file:///System/Library/DTDs/CoreData.dtd\">\n<database></database>\n"
                .utf8)
        let xmlError = fixture.expectRefused(xml, "XML file")
        #expect(xmlError?.description.contains("XML") == true)

        let text = fixture.expectRefused(Array("hello, world\n".utf8), "text file")
        #expect(text?.description.contains("not an ObjectGraph binary store") == true)
    }
}
