import Foundation
import Testing

@testable import ObjectGraph

@Suite("NFC check")
struct NormalizationTests {
    /// Foundation's answer, the reference.
    static func foundationSaysNFC(_ text: String) -> Bool {
        text.utf8.elementsEqual(text.precomposedStringWithCanonicalMapping.utf8)
    }

    @Test("text below U+0300 is NFC, as Foundation says, alone and in random runs")
    func belowCombiningMarks() {
        let scalars = (1..<0x300).compactMap(Unicode.Scalar.init)
        for scalar in scalars {
            let text = String(Character(scalar))
            #expect(Self.foundationSaysNFC(text), "U+\(String(scalar.value, radix: 16))")
            #expect(SQLFunctions.isNormalizationFormC(text))
        }
        var generator = SeededGenerator(seed: 7)
        for _ in 0..<3_000 {
            var text = ""
            for _ in 0..<Int.random(in: 2...6, using: &generator) {
                text.unicodeScalars.append(scalars.randomElement(using: &generator) ?? "a")
            }
            #expect(Self.foundationSaysNFC(text) && SQLFunctions.isNormalizationFormC(text))
        }
    }

    @Test("decomposed, singleton and other text is checked by Foundation")
    func otherText() {
        for (text, nfc) in [
            ("García", true), ("Garci\u{301}a", false), ("\u{212B}", false), ("Å", true),
            ("한국어", true), ("\u{1100}\u{1161}", false), ("e\u{301}\u{302}", false),
            ("naïve café", true), ("", true),
        ] {
            #expect(
                SQLFunctions.isNormalizationFormC(text) == nfc,
                "\(text.unicodeScalars.map(\.value))")
            #expect(Self.foundationSaysNFC(text) == nfc)
        }
    }

    @Test("a store's text is found NFC or not at open, and its sorts follow Swift's order")
    func storeTextCheck() throws {
        let folder = try TestSupport.makeTemporaryFolder()
        defer { TestSupport.removeTemporaryFolder(folder) }
        let model = EntityModel(entities: [
            Entity("Word", attributes: [Attribute("text", type: .string, isIndexed: true)])
        ])
        let cases: [(words: [String], nfc: Bool)] = [
            (["b", "a", "C"], true),
            (["J\u{FC}rgen", "caf\u{E9}", "\u{65E5}\u{672C}", "Zo\u{EB}"], true),
            (["a\u{0}b", "a", "\u{0}"], true),
            (["caf\u{E9}", "cafe\u{301}s", "cafd"], false),
        ]
        for (index, entry) in cases.enumerated() {
            let url = folder.appendingPathComponent("W\(index).sqlite")
            do {
                let coordinator = StoreCoordinator(model: model)
                try coordinator.addStore(type: .sqlite, at: url)
                let context = ManagedContext(coordinator: coordinator)
                for word in entry.words { try context.insert("Word").set(word, for: "text") }
                try context.save()
            }
            let coordinator = StoreCoordinator(model: model)
            try coordinator.addStore(type: .sqlite, at: url)
            let context = ManagedContext(coordinator: coordinator)
            let request = FetchRequest(
                entityName: "Word", sortDescriptors: [ObjectGraph.SortDescriptor("text")])
            let sql = try #require(try context.sql(for: request))
            #expect(sql.contains(SQLFunctions.sortKey) == !entry.nfc, "\(entry.words)")
            let sorted = try context.fetch(request).compactMap { $0["text"] as String? }
            #expect(sorted == entry.words.sorted(), "\(entry.words)")
        }
    }
}
