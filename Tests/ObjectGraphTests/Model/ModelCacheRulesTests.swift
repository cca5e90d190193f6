import Foundation
import KeyedArchive
import ObjectGraph
import SQLiteDatabase
import Testing

/// Validation rules, fetch requests and fetched properties in model caches: read from Core
/// Data's own caches, and bounded on hostile ones.
@Suite("Model cache: validation rules and predicates")
struct ModelCacheRulesTests {
    @Test(
        "Xcode's compiled minimum comes back as the attribute's minimum (EasyLife)",
        .enabled(if: TestSupport.hasCorpus))
    func compiledMinimumFromCoreDataCache() throws {
        let stores = try ModelCacheWriterTests.cachedStores()
        var checked = 0
        for (url, _, model) in stores where url.lastPathComponent.hasPrefix("EasyLife") {
            let repeats = try #require(
                model.entity(named: "TodoItem")?.attributes.first { $0.name == "repeats" })
            #expect(repeats.minValueString == "0", "\(url.lastPathComponent)")
            #expect(repeats.validationPredicates.isEmpty, "\(url.lastPathComponent)")
            checked += 1
        }
        #expect(checked == 3)
    }

    /// A model of one entity whose attribute `value` has the validation predicates
    /// `predicates` (built with `builder`) and text warnings.
    static func archive(
        _ makePredicates: (inout KeyedArchiveBuilder) -> [PropertyListObject]
    ) -> Data {
        var builder = KeyedArchiveBuilder()
        let name = builder.add(.string("Item"))
        let valueName = builder.add(.string("value"))
        let predicates = makePredicates(&builder)
        let warnings = predicates.map { _ in builder.add(.string("bad value")) }
        let attribute = builder.addObject(
            className: "NSAttributeDescription",
            superclasses: ["NSPropertyDescription", "NSObject"],
            fields: [
                "NSPropertyName": valueName, "NSAttributeType": .integer(300),
                "_P": .integer(0xC3), "NSValidationPredicates": builder.addArray(predicates),
                "NSValidationWarnings": builder.addArray(warnings),
            ])
        let properties = builder.addDictionary([(key: valueName, value: attribute)])
        let entity = builder.addObject(
            className: "NSEntityDescription",
            fields: ["NSEntityName": name, "NSProperties": properties])
        let model = builder.addObject(
            className: "NSManagedObjectModel",
            fields: ["NSEntities": builder.addDictionary([(key: name, value: entity)])])
        return builder.archive(root: model)
    }

    @Test("a predicate whose shared parts expand past the limit is refused, not expanded")
    func sharedPredicateIsBounded() throws {
        let data = Self.archive { builder in
            var predicate = builder.addObject(
                className: "NSTruePredicate", superclasses: ["NSPredicate", "NSObject"],
                fields: [:])
            // 40 levels of AND(p, p): 2^40 leaves as a tree, 41 objects as written.
            for _ in 0..<40 {
                predicate = builder.addObject(
                    className: "NSCompoundPredicate", superclasses: ["NSPredicate", "NSObject"],
                    fields: [
                        "NSCompoundPredicateType": .integer(1),
                        "NSSubpredicates": builder.addArray([predicate, predicate]),
                    ])
            }
            return [predicate]
        }
        #expect(throws: ArchivedModelError.self) {
            _ = try EntityModel(modelArchive: data, source: "bomb.sqlite")
        }
        do {
            _ = try EntityModel(modelArchive: data, source: "bomb.sqlite")
        } catch {
            #expect(error.description.contains("bomb.sqlite"))
            #expect(error.description.contains("parts"))
        }
    }

    @Test("a rule ObjectGraph has no form for is left out with a warning; the others are kept")
    func unknownRuleIsLeftOut() throws {
        let data = Self.archive { builder in
            func comparison(_ type: Int64, _ value: Int64) -> PropertyListObject {
                let left = builder.addObject(
                    className: "NSSelfExpression", superclasses: ["NSExpression", "NSObject"],
                    fields: ["NSExpressionType": .integer(1)])
                let right = builder.addObject(
                    className: "NSConstantValueExpression",
                    superclasses: ["NSExpression", "NSObject"],
                    fields: ["NSExpressionType": .integer(0), "NSConstantValue": .integer(value)])
                let op = builder.addObject(
                    className: "NSComparisonPredicateOperator",
                    superclasses: ["NSPredicateOperator", "NSObject"],
                    fields: [
                        "NSOperatorType": .integer(type), "NSModifier": .integer(0),
                        "NSVariant": .integer(type), "NSOptions": .integer(0),
                    ])
                return builder.addObject(
                    className: "NSComparisonPredicate", superclasses: ["NSPredicate", "NSObject"],
                    fields: [
                        "NSLeftExpression": left, "NSRightExpression": right,
                        "NSPredicateOperator": op,
                    ])
            }
            // Operator 11 is a custom selector, which ObjectGraph cannot evaluate.
            return [comparison(11, 1), comparison(2, 7)]
        }
        let model = try EntityModel(modelArchive: data, source: "rules.sqlite")
        let value = try #require(model.entity(named: "Item")?.attributes.first)
        #expect(value.validationPredicates.map(\.predicate.description) == ["SELF > 7"])
        #expect(value.validationPredicates.map(\.warning) == ["bad value"])
        #expect(model.loadDiagnostics.count == 1)
        #expect(model.loadDiagnostics.first?.message.contains("rules.sqlite") == true)
    }
}

/// Our raw DEFLATE compressor: whatever it compresses inflates back to the same bytes.
@Suite("RawDeflate")
struct RawDeflateTests {
    static func roundTrip(_ bytes: [UInt8]) throws -> Data {
        let compressed = RawDeflate.deflate(Data(bytes))
        #expect(try RawInflate.inflate(compressed) == Data(bytes))
        return compressed
    }

    @Test("empty, tiny, repetitive, long-run and incompressible inputs inflate back unchanged")
    func roundTrips() throws {
        _ = try Self.roundTrip([])
        _ = try Self.roundTrip([42])
        _ = try Self.roundTrip(Array("abcabcabcabc".utf8))
        let run = try Self.roundTrip([UInt8](repeating: 7, count: 100_000))
        #expect(run.count < 1_000)
        var generator = SystemRandomNumberGenerator()
        let noise = (0..<200_000).map { _ in UInt8.random(in: 0...255, using: &generator) }
        let stored = try Self.roundTrip(noise)
        // Stored blocks: the input plus five bytes per 65,535.
        #expect(stored.count == noise.count + 5 * 4)
        var text: [UInt8] = []
        for index in 0..<5_000 { text += Array("entity \(index % 97) name=\(index)\n".utf8) }
        let compressed = try Self.roundTrip(text)
        #expect(compressed.count * 3 < text.count)
    }

    @Test("a model archive compresses about as well as Core Data's own caches")
    func modelArchiveCompresses() throws {
        let archive = ModelCacheWriterTests.richModel().modelArchive()
        let compressed = try Self.roundTrip([UInt8](archive))
        // Since the archive shares its repeated strings as Core Data's does, little repetition
        // is left for the compressor: 0.71 of the archive measured; stored blocks would be 1.0.
        #expect(compressed.count * 10 < archive.count * 8)
    }
}
