import Foundation
import KeyedArchive
import ObjectGraph
import SQLiteDatabase
import Testing

/// The model cache ObjectGraph writes (`EntityModel.modelCache()`): every corpus model and
/// every corpus store's cached model goes through it and back unchanged, with the classes and
/// keys Core Data's own caches use.
@Suite("Writing Z_MODELCACHE")
struct ModelCacheWriterTests {
    /// Every model of the Xcode model corpus (each version of each bundle, each unwrapped
    /// model), with a label.
    static func corpusModels() throws -> [(label: String, model: EntityModel)] {
        let (bundles, unwrapped) = CorpusModelTests.modelPaths()
        var result: [(label: String, model: EntityModel)] = []
        for url in bundles {
            let bundle = try ModelBundle(contentsOf: url)
            for name in bundle.versionNames {
                result.append(("\(url.lastPathComponent)/\(name)", try bundle.model(named: name)))
            }
        }
        for url in unwrapped {
            result.append((url.lastPathComponent, try EntityModel(contentsOf: url)))
        }
        return result
    }

    /// The corpus stores that keep a model cache, with the archive (inflated) and its model.
    static func cachedStores() throws -> [(url: URL, archive: Data, model: EntityModel)] {
        var result: [(url: URL, archive: Data, model: EntityModel)] = []
        for url in ModelCacheCorpusTests.storeFiles() {
            let database = try Database(url: url, mode: .readOnlyUntouched)
            guard try database.tableExists("Z_MODELCACHE"),
                let row = try database.fetchOne(sql: "SELECT Z_CONTENT FROM Z_MODELCACHE"),
                let content = try row.decode(Data?.self, at: 0), !content.isEmpty
            else { continue }
            let archive = try RawInflate.inflate(content)
            result.append((url, archive, try EntityModel(modelArchive: archive, source: url.path)))
        }
        return result
    }

    @Test(
        "every corpus model goes through its cache and back unchanged",
        .enabled(if: TestSupport.hasCorpus))
    func corpusModelsRoundTrip() throws {
        let models = try Self.corpusModels()
        #expect(models.count >= 80)
        for (label, model) in models {
            let decoded = try EntityModel(modelCache: model.modelCache(), source: label)
            ModelCacheComparison.expectEquivalent(model, decoded, label)
        }
    }

    @Test(
        "every cached corpus store's model goes through our cache and back unchanged",
        .enabled(if: TestSupport.hasCorpus))
    func cachedModelsRoundTrip() throws {
        let stores = try Self.cachedStores()
        #expect(stores.count >= 8)
        for (url, _, model) in stores {
            let decoded = try EntityModel(
                modelCache: model.modelCache(), source: url.lastPathComponent)
            ModelCacheComparison.expectEquivalent(model, decoded, url.lastPathComponent)
            #expect(
                decoded.entityVersionHashes == (try ModelCacheCorpusTests.storedHashes(url)),
                "\(url.lastPathComponent)")
        }
    }

    @Test(
        "the archive uses the classes and keys of Core Data's caches, and the same property flags",
        .enabled(if: TestSupport.hasCorpus))
    func coreDataClassesAndKeys() throws {
        var real: [String: Set<String>] = [:]
        var ours: [String: Set<String>] = [:]
        for (url, archive, model) in try Self.cachedStores() {
            let theirs = try ArchiveObjects(archive)
            let mine = try ArchiveObjects(model.modelArchive())
            real.merge(theirs.keysByClass) { $0.union($1) }
            ours.merge(mine.keysByClass) { $0.union($1) }
            // Each property's `_P` flags, and each inherited property's place (NSReferenceID).
            #expect(mine.propertyFlags == theirs.propertyFlags, "\(url.lastPathComponent)")
            #expect(mine.proxyPlaces == theirs.proxyPlaces, "\(url.lastPathComponent)")
            // Older caches leave out empty index lists; every key they write, ours has.
            for (entity, keys) in theirs.entityKeys {
                #expect(keys.isSubset(of: mine.entityKeys[entity] ?? []), "\(entity)")
            }
        }
        let missing = Set(ours.keys).subtracting(real.keys)
        #expect(missing.isEmpty, "classes Core Data's caches do not use: \(missing)")
        for (className, keys) in ours.sorted(by: { $0.key < $1.key }) {
            #expect(keys == real[className], "\(className)")
        }
    }

    @Test("a model with every kind of part goes through its cache and back")
    func everyPartRoundTrips() throws {
        let model = Self.richModel()
        let decoded = try EntityModel(modelCache: model.modelCache(), source: "rich")
        ModelCacheComparison.expectEquivalent(model, decoded, "rich")
        let errors = decoded.validate().filter { $0.severity == .error }
        #expect(errors.isEmpty, "\(errors)")
    }

    @Test("a broken model is written without trapping and reads back as far as it goes")
    func brokenModelIsWritten() throws {
        var loop = Entity("Loop")
        loop.parentName = "Knot"
        var knot = Entity("Knot")
        knot.parentName = "Loop"
        var orphan = Entity("Orphan")
        orphan.parentName = "Missing"
        orphan.attributes = [
            Attribute("twice", type: .integer16, defaultValueString: "many"),
            Attribute("twice", type: .string),
        ]
        orphan.relationships = [
            Relationship("nowhere", destination: "Nowhere", inverse: "back"),
            {
                var counts = Relationship("counts", destination: "Orphan", toMany: true)
                counts.minCountString = "-4"
                counts.maxCountString = "99999999999"
                return counts
            }(),
        ]
        orphan.fetchIndexes = [
            FetchIndex(
                "byNothing", elements: [.init(property: "none", type: "?", isAscending: false)])
        ]
        var template = FetchTemplate("unparsable", entity: "Nowhere")
        template.predicateString = "name ==== "
        let model = EntityModel(
            entities: [loop, knot, orphan, orphan], fetchTemplates: [template, template],
            versionIdentifier: nil)
        let archive = model.modelArchive()
        #expect(try KeyedArchive(data: archive).objectCount > 10)
        // A cycle or a missing parent is the reader's to refuse; the bytes are well-formed.
        #expect(try RawInflate.inflate(model.modelCache()) == archive)
    }

    /// A model with inheritance, every attribute type with defaults, relationships of every
    /// kind, indexes, constraints, user info, modifiers, renaming identifiers, validation
    /// rules, fetch templates, fetched properties and configurations.
    static func richModel() -> EntityModel {
        var base = Entity("Base")
        base.isAbstract = true
        base.className = "BaseMO"
        base.versionHashModifier = "v2"
        base.renamingIdentifier = "OldBase"
        base.userInfo = UserInfo([UserInfo.Entry(key: "owner", value: "me")])
        var created = Attribute("created", type: .date)
        created.defaultDateTimeInterval = 12_345.5
        created.minDateTimeInterval = 0
        created.maxDateTimeInterval = 900_000_000
        var label = Attribute("label", type: .string, isOptional: false, isIndexed: true)
        label.minValueString = "2"
        label.maxValueString = "40"
        label.regularExpression = "[A-Z].*"
        label.defaultValueString = "Untitled"
        label.validationPredicates = [
            ValidationPredicate(
                (try? Predicate(format: "NOT SELF BEGINSWITH[cd] 'x'")) ?? .constant(true),
                warning: "no x")
        ]
        label.userInfo = UserInfo([UserInfo.Entry(key: "hint", value: "short")])
        label.versionHashModifier = "text"
        label.renamingIdentifier = "title"
        var tagCount = Attribute("tagCount", type: .integer64)
        tagCount.isDerived = true
        tagCount.derivationExpression = "tags.@count"
        base.attributes = [created, label, tagCount]
        base.relationships = [
            Relationship(
                "tags", destination: "Tag", toMany: true, inverse: "items", isOrdered: true)
        ]
        base.fetchIndexes = [
            FetchIndex(
                "byLabel",
                elements: [
                    .init(property: "label", type: "Binary", isAscending: false),
                    .init(property: "created", type: "Binary", isAscending: true),
                ])
        ]
        base.compoundIndexes = [["label", "created"]]
        base.uniquenessConstraints = [["label"], ["label", "created"]]
        var fetched = FetchedProperty(
            "recentTags",
            fetchRequest: FetchTemplate(
                "fetchedPropertyFetchRequest", entity: "Tag", predicate: "name BEGINSWITH 'a'"))
        fetched.userInfo = UserInfo([UserInfo.Entry(key: "kind", value: "fetched")])
        base.fetchedProperties = [fetched]

        var item = Entity("Item")
        item.parentName = "Base"
        var numbers: [Attribute] = []
        for (name, type, value) in [
            ("small", AttributeType.integer16, "-3"), ("medium", .integer32, "70000"),
            ("large", .integer64, "5000000000"), ("ratio", .double, "0.25"),
            ("weight", .float, "1.5"), ("price", .decimal, "12.75"), ("done", .boolean, "YES"),
            ("id", .uuid, "0A7F5C63-1B43-4D2B-9C55-7A1B2C3D4E5F"),
            ("link", .uri, "https://example.com/a"),
        ] {
            numbers.append(Attribute(name, type: type, defaultValueString: value))
        }
        numbers[0].minValueString = "-10"
        numbers[0].maxValueString = "10"
        numbers[3].minValueString = "0.5"
        numbers[5].maxValueString = "100"
        var photo = Attribute("photo", type: .binary)
        photo.allowsExternalBinaryDataStorage = true
        photo.preservesValueInHistoryOnDeletion = true
        photo.isIndexedBySpotlight = true
        photo.isStoredInExternalRecord = true
        var colors = Attribute("colors", type: .transformable)
        colors.valueTransformerName = "NSSecureUnarchiveFromData"
        colors.customClassName = "NSArray"
        var scratch = Attribute("scratch", type: .string, isTransient: true)
        scratch.isOptional = true
        item.attributes = numbers + [photo, colors, scratch]
        var owner = Relationship("owner", destination: "Tag", deleteRule: .deny, isOptional: false)
        owner.isTransient = false
        var bounded = Relationship("related", destination: "Item", toMany: true, inverse: "related")
        bounded.minCountString = "1"
        bounded.maxCountString = "5"
        bounded.deleteRule = .cascade
        var cached = Relationship("cachedTag", destination: "Tag", deleteRule: .noAction)
        cached.isTransient = true
        item.relationships = [owner, bounded, cached]

        var tag = Entity("Tag")
        tag.attributes = [Attribute("name", type: .string)]
        tag.relationships = [
            Relationship("items", destination: "Base", toMany: true, inverse: "tags")
        ]

        var byName = FetchTemplate("tagsNamed", entity: "Tag", predicate: "name == $NAME")
        byName.fetchLimit = 10
        byName.fetchBatchSize = 20
        byName.resultType = 2
        byName.includesSubentities = true
        byName.returnsObjectsAsFaults = true
        byName.returnsDistinctResults = true
        var everything = FetchTemplate("everything", entity: "Base")
        everything.includesPendingChanges = true
        everything.includesPropertyValues = true
        return EntityModel(
            entities: [base, item, tag], fetchTemplates: [byName, everything],
            configurations: [
                Configuration("Local", entities: ["Item", "Tag"]),
                Configuration("Cloud", entities: ["Base"]),
            ],
            versionIdentifier: "7")
    }
}

/// The objects of a keyed archive seen as Core Data's model classes: the keys each class's
/// objects use, each property's `_P` flags and each inherited property's place.
struct ArchiveObjects {
    var keysByClass: [String: Set<String>] = [:]
    /// `Entity.property` → `_P`.
    var propertyFlags: [String: Int64] = [:]
    /// `Entity.property` → `NSReferenceID` of the entity's proxy for an inherited property.
    var proxyPlaces: [String: Int64] = [:]
    /// `Entity` → the keys its `NSEntityDescription` has.
    var entityKeys: [String: Set<String>] = [:]

    init(_ archive: Data) throws {
        guard case .dictionary(let top) = try BinaryPropertyList.decode(archive),
            case .array(let objects)? = top["$objects"]
        else { throw KeyedArchiveError.notAKeyedArchive(reason: "no $objects") }
        func record(_ reference: PropertyListObject?) -> [String: PropertyListObject]? {
            guard case .uid(let index)? = reference, index < UInt64(objects.count),
                case .dictionary(let fields) = objects[Int(index)]
            else { return nil }
            return fields
        }
        func className(_ entries: [String: PropertyListObject]) -> String? {
            record(entries["$class"])?["$classname"]?.string
        }
        func text(_ reference: PropertyListObject?) -> String? {
            guard case .uid(let index)? = reference, index < UInt64(objects.count) else {
                return nil
            }
            return objects[Int(index)].string ?? record(reference)?["NS.string"]?.string
        }
        for object in objects {
            guard case .dictionary(let entries) = object, let name = className(entries) else {
                continue
            }
            keysByClass[name, default: []].formUnion(entries.keys.filter { $0 != "$class" })
            switch name {
            case "NSEntityDescription":
                if let entity = text(entries["NSEntityName"]) {
                    entityKeys[entity] = Set(entries.keys)
                }
            case "NSAttributeDescription", "NSRelationshipDescription":
                if let entity = record(entries["NSEntity"]).flatMap({ text($0["NSEntityName"]) }),
                    let property = text(entries["NSPropertyName"])
                {
                    propertyFlags["\(entity).\(property)"] = entries["_P"]?.integer
                }
            case "_NSPropertyDescriptionProxy":
                if let entity = record(entries["NSEntityDescription"]).flatMap({
                    text($0["NSEntityName"])
                }),
                    let property = record(entries["NSUnderlyingProperty"]).flatMap({
                        text($0["NSPropertyName"])
                    })
                {
                    proxyPlaces["\(entity).\(property)"] = entries["NSReferenceID"]?.integer
                }
            default: break
            }
        }
    }
}
