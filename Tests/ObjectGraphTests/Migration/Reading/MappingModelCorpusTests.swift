import Foundation
import ObjectGraph
import Testing

/// The corpus folder of CoreStore's mapping models (in `../shared/corpus`, or the corpus
/// `OBJECTGRAPH_CORPUS` names), `nil` when absent.
private let corestoreMappingFolder: URL? =
    (ProcessInfo.processInfo.environment["OBJECTGRAPH_CORPUS"].map { URL(fileURLWithPath: $0) }
    ?? TestSupport.corpus).map {
        $0.appendingPathComponent("coredata-stores/14-corestore-xcmapping-xml")
    }.flatMap { FileManager.default.fileExists(atPath: $0.path) ? $0 : nil }

/// The real Xcode mapping models of `../shared/corpus/coredata-stores/14-corestore-xcmapping-xml`
/// (CoreStore's evolution demo): every archived value expression decodes and prints as the Core
/// Data expression it is; the versions, entity mappings and policy are read; hostile variants of
/// the archives throw and never trap. Skipped when the corpus is absent.
@Suite(.enabled(if: corestoreMappingFolder != nil))
struct MappingModelCorpusTests {
    static var folder: URL? { corestoreMappingFolder }

    static var bundleURL: URL? {
        folder?.appendingPathComponent("Advanced.EvolutionDemo.V1.xcdatamodeld")
    }

    /// What each archived value expression of the corpus is, by file and destination attribute.
    static let expected: [String: [String: String]] = [
        "Advanced.EvolutionDemo.V2.FromV1.xcmappingmodel": [
            "numberOfFlippers": "$source.numberOfFlagella", "hasHead": "TRUE",
        ],
        "Advanced.EvolutionDemo.V1.FromV2.xcmappingmodel": [
            "numberOfFlagella": "$source.numberOfFlippers"
        ],
    ]

    static func versions() throws -> [ModelVersion] {
        let bundle = try ModelBundle(contentsOf: try #require(bundleURL))
        return try bundle.versionNames.map {
            ModelVersion(name: $0, model: try bundle.model(named: $0))
        }
    }

    /// Every `valueexpressiondata` in a file, by the `name` of the object holding it, read from
    /// the XML text itself (independently of the reader).
    static func archivedExpressions(in file: URL) throws -> [String: Data] {
        let text = try String(
            contentsOf: file.appendingPathComponent("xcmapping.xml"), encoding: .utf8)
        var result: [String: Data] = [:]
        for object in text.components(separatedBy: "<object ").dropFirst() {
            let body = object.components(separatedBy: "</object>")[0]
            guard
                let archiveStart = body.range(
                    of: "<attribute name=\"valueexpressiondata\" type=\"binary\">"),
                let nameStart = body.range(of: "<attribute name=\"name\" type=\"string\">")
            else { continue }
            let archive = body[archiveStart.upperBound...].prefix { $0 != "<" }
            let name = body[nameStart.upperBound...].prefix { $0 != "<" }
            guard
                let decoded = Data(
                    base64Encoded: String(archive), options: .ignoreUnknownCharacters)
            else {
                Issue.record("the archive of \(name) is not base64")
                continue
            }
            result[String(name)] = decoded
        }
        return result
    }

    @Test("every valueexpressiondata decodes and prints as its Core Data expression")
    func everyArchivedExpression() throws {
        let folder = try #require(Self.folder)
        var decoded = 0
        for (file, expectations) in Self.expected {
            let archives = try Self.archivedExpressions(in: folder.appendingPathComponent(file))
            #expect(Set(archives.keys) == Set(expectations.keys), "\(file)")
            for (name, data) in archives {
                let expression = try Expression(archivedData: data)
                #expect(expression.description == expectations[name], "\(file) \(name)")
                #expect(expression == (try Expression(format: expression.description)))
                decoded += 1
            }
        }
        #expect(decoded == 3)
    }

    @Test("the mapping models read: versions, entity mappings, policy and expressions")
    func mappingModels() throws {
        let folder = try #require(Self.folder)
        let versions = try Self.versions()
        let forward = try MappingModel(
            contentsOf: folder.appendingPathComponent(
                "Advanced.EvolutionDemo.V2.FromV1.xcmappingmodel"),
            versions: versions)
        #expect(forward.sourceVersionName == "Advanced.EvolutionDemo.V1")
        #expect(forward.destinationVersionName == "Advanced.EvolutionDemo.V2")
        #expect(!forward.isInferred)
        #expect(forward.sourceFile?.hasSuffix("xcmapping.xml") == true)
        let creature = try #require(forward.entityMapping(named: "CreatureToCreature"))
        #expect(creature.kind == .undefined)
        #expect(
            creature.sourceEntityName == "Creature" && creature.destinationEntityName == "Creature")
        #expect(
            creature.migrationPolicyClassName == "Advanced_EvolutionDemo_V2_FromV1MigrationPolicy")
        #expect(creature.sourceEntityVersionHash?.count == 32)
        #expect(creature.sourceExpression == nil && creature.filterPredicate == nil)
        #expect(
            creature.attributeMappings.map(\.name)
                == ["dnaCode", "hasTail", "numberOfFlippers", "hasHead", "hasVertebrae"])
        let values = Dictionary(
            uniqueKeysWithValues: creature.attributeMappings.map {
                ($0.name, $0.valueExpression?.description)
            })
        #expect(values["numberOfFlippers"] == "$source.numberOfFlagella")
        #expect(values["hasHead"] == "TRUE")
        #expect(values["dnaCode"] == .some(nil))
        #expect(creature.relationshipMappings.isEmpty)

        let backward = try MappingModel(
            contentsOf: folder.appendingPathComponent(
                "Advanced.EvolutionDemo.V1.FromV2.xcmappingmodel"),
            versions: versions)
        #expect(backward.sourceVersionName == "Advanced.EvolutionDemo.V2")
        let back = try #require(backward.entityMappings.first)
        #expect(back.migrationPolicyClassName == nil)
        #expect(
            back.attributeMappings.first { $0.name == "numberOfFlagella" }?.valueExpression
                == (try Expression(format: "$source.numberOfFlippers")))
    }

    @Test("the locator finds both mapping models beside the bundle")
    func locator() throws {
        let models = try MappingModelLocator.mappingModels(
            besides: try #require(Self.bundleURL), versions: try Self.versions())
        #expect(
            models.map { "\($0.sourceVersionName ?? "") → \($0.destinationVersionName ?? "")" } == [
                "Advanced.EvolutionDemo.V2 → Advanced.EvolutionDemo.V1",
                "Advanced.EvolutionDemo.V1 → Advanced.EvolutionDemo.V2",
            ])
        #expect(
            try MappingModelLocator.mappingModels(
                besides: try #require(Self.bundleURL), versions: []
            ).isEmpty)
    }

    @Test("every truncation and many byte flips of the real archives throw, never trap")
    func hostileArchives() throws {
        let folder = try #require(Self.folder)
        var thrown = 0
        var decoded = 0
        for file in Self.expected.keys {
            for data in try Self.archivedExpressions(in: folder.appendingPathComponent(file)).values
            {
                for length in 0..<data.count {
                    #expect(throws: ArchivedPredicateError.self) {
                        _ = try Expression(archivedData: data.prefix(length))
                    }
                }
                for position in 0..<data.count {
                    for mask: UInt8 in [0x01, 0x04, 0x20, 0x80, 0xFF] {
                        var bytes = data
                        bytes[position] ^= mask
                        do {
                            _ = try Expression(archivedData: bytes)
                            decoded += 1
                        } catch {
                            thrown += 1
                        }
                    }
                }
            }
        }
        #expect(thrown > 0)
        #expect(thrown + decoded == 5 * (676 + 290 + 676))
    }
}
