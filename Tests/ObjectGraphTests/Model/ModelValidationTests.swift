import Foundation
import ObjectGraph
import Testing

/// One rule that must fire: the model, and the diagnostic expected in what `validate()` returns.
struct ValidationRuleCase: Sendable, CustomTestStringConvertible {
    let ruleID: String
    let severity: Diagnostic.Severity
    let entity: String?
    let property: String?
    /// Text the message must contain.
    let messageContains: String
    let model: EntityModel

    var testDescription: String { "\(ruleID) (\(messageContains))" }

    init(
        _ ruleID: String, _ severity: Diagnostic.Severity, entity: String?,
        property: String? = nil, message: String = "", _ entities: [Entity],
        templates: [FetchTemplate] = [], configurations: [Configuration] = []
    ) {
        self.ruleID = ruleID
        self.severity = severity
        self.entity = entity
        self.property = property
        messageContains = message
        model = EntityModel(
            entities: entities, fetchTemplates: templates, configurations: configurations)
    }
}

/// A few building blocks for small models.
enum ValidationFixture {
    static func entity(
        _ name: String, parent: String? = nil, _ attributes: [Attribute] = [],
        _ relationships: [Relationship] = [], configure: (inout Entity) -> Void = { _ in }
    ) -> Entity {
        var entity = Entity(
            name, parent: parent, attributes: attributes, relationships: relationships)
        configure(&entity)
        return entity
    }

    static func attribute(
        _ name: String, _ type: AttributeType, configure: (inout Attribute) -> Void
    ) -> Attribute {
        var attribute = Attribute(name, type: type)
        configure(&attribute)
        return attribute
    }

    static func relationship(
        _ name: String, to destination: String, toMany: Bool = false, inverse: String? = nil,
        configure: (inout Relationship) -> Void = { _ in }
    ) -> Relationship {
        var relationship = Relationship(
            name, destination: destination, toMany: toMany, inverse: inverse)
        configure(&relationship)
        return relationship
    }

    /// Two entities A and B with a to-one `a.b` and its to-many inverse `b.as`, plus `extra`
    /// attributes on A.
    static func pair(_ extra: [Attribute] = []) -> [Entity] {
        [
            entity("A", extra, [relationship("b", to: "B", inverse: "items")]),
            entity("B", [], [relationship("items", to: "A", toMany: true, inverse: "b")]),
        ]
    }

    /// Entity `E` with one attribute.
    static func one(_ attribute: Attribute) -> [Entity] {
        [entity("E", [attribute])]
    }
}

@Suite("Model validation")
struct ModelValidationTests {
    /// A school-like model using every kind of element, correctly.
    static var cleanModel: EntityModel {
        var person = ValidationFixture.entity(
            "Person",
            [
                Attribute("name", type: .string, isOptional: false),
                ValidationFixture.attribute("age", .integer16) {
                    $0.defaultValueString = "0"
                    $0.minValueString = "0"
                    $0.maxValueString = "150"
                },
                ValidationFixture.attribute("email", .string) {
                    $0.regularExpression = #"\A[^@]+@([^@\.]+\.)+[^@\.]+\z"#
                    $0.minValueString = "3"
                    $0.maxValueString = "254"
                },
                ValidationFixture.attribute("born", .date) {
                    $0.defaultDateTimeInterval = 0
                    $0.minValueString = "2001-01-01 00:00:00"
                    $0.minDateTimeInterval = -3_000_000_000
                    $0.maxDateTimeInterval = 3_000_000_000
                },
                Attribute("active", type: .boolean, defaultValueString: "YES"),
                Attribute("score", type: .double, defaultValueString: "1.5"),
                Attribute("id", type: .uuid),
                Attribute("photo", type: .binary),
                Attribute("tags", type: .transformable, defaultValueString: ""),
                Attribute("scratch", type: .undefined, isTransient: true),
                ValidationFixture.attribute("courseCount", .integer64) {
                    $0.isDerived = true
                    $0.derivationExpression = "courses.@count"
                },
            ],
            [
                ValidationFixture.relationship(
                    "courses", to: "Course", toMany: true, inverse: "members"),
                ValidationFixture.relationship(
                    "friends", to: "Person", toMany: true, inverse: "friends"),
            ]
        ) {
            $0.isAbstract = true
            $0.fetchIndexes = [
                FetchIndex("byName", elements: [FetchIndex.Element(property: "name")])
            ]
        }
        person.uniquenessConstraints = [["id"]]
        let student = ValidationFixture.entity(
            "Student", parent: "Person",
            [Attribute("studentNumber", type: .integer32)],
            [
                ValidationFixture.relationship("advisor", to: "Teacher", inverse: "advisees") {
                    $0.minCountString = "1"  // optional to-one with minCount 1: normal
                }
            ]
        ) {
            $0.uniquenessConstraints = [["studentNumber"], ["name", "advisor"]]
            $0.compoundIndexes = [["studentNumber", "name"]]
        }
        let teacher = ValidationFixture.entity(
            "Teacher", parent: "Person", [],
            [
                ValidationFixture.relationship(
                    "advisees", to: "Student", toMany: true, inverse: "advisor"
                ) {
                    $0.isOptional = false  // required to-many with minCount 0: fine
                }
            ])
        var course = ValidationFixture.entity(
            "Course", [Attribute("title", type: .string)],
            [
                ValidationFixture.relationship(
                    "members", to: "Person", toMany: true, inverse: "courses")
            ])
        course.fetchedProperties = [
            FetchedProperty(
                "popular",
                fetchRequest: FetchTemplate("fetchedPropertyFetchRequest", entity: "Course"))
        ]
        // An abstract entity without subentities is fine.
        let unused = ValidationFixture.entity("Archive") { $0.isAbstract = true }
        return EntityModel(
            entities: [person, student, teacher, course, unused],
            fetchTemplates: [
                FetchTemplate("byName", entity: "Student", predicate: "name == $NAME")
            ],
            configurations: [
                Configuration("Cloud", entities: ["Student", "Teacher"], isUsedWithCloudKit: true),
                Configuration("Local", entities: ["Course"]),
            ])
    }

    @Test("a clean model has no diagnostics")
    func cleanModelHasNoDiagnostics() {
        let diagnostics = Self.cleanModel.validate()
        #expect(diagnostics.isEmpty, "\(diagnostics.map(\.description))")
    }

    @Test("a model built in code has diagnostics without locations")
    func codeBuiltModelsHaveNoLocations() throws {
        let model = EntityModel(entities: [Entity("A"), Entity("A")])
        let diagnostic = try #require(model.validate().first)
        #expect(diagnostic.location == nil)
        #expect(
            diagnostic.description
                == "error: entity 'A' is declared more than once [duplicate-entity]")
    }

    static let ruleCases: [ValidationRuleCase] = [
        ValidationRuleCase("duplicate-entity", .error, entity: "A", [Entity("A"), Entity("A")]),
        ValidationRuleCase(
            "invalid-name", .error, entity: "My Entity", message: "may contain only",
            [Entity("My Entity")]),
        ValidationRuleCase("invalid-name", .error, entity: "", message: "is empty", [Entity("")]),
        ValidationRuleCase(
            "invalid-name", .error, entity: "E", property: "first name",
            ValidationFixture.one(Attribute("first name", type: .string))),
        ValidationRuleCase(
            "invalid-name", .error, entity: "E", property: "1st", message: "must begin",
            ValidationFixture.one(Attribute("1st", type: .string))),
        ValidationRuleCase("entity-name-case", .warning, entity: "person", [Entity("person")]),
        ValidationRuleCase(
            "unknown-parent-entity", .error, entity: "B", message: "'Nope'",
            [Entity("B", parent: "Nope")]),
        ValidationRuleCase(
            "inheritance-cycle", .error, entity: "A", message: "A -> B -> A",
            [Entity("A", parent: "B"), Entity("B", parent: "A")]),
        ValidationRuleCase(
            "inheritance-cycle", .error, entity: "Self", [Entity("Self", parent: "Self")]),
        ValidationRuleCase(
            "duplicate-property", .error, entity: "E", property: "name",
            [
                ValidationFixture.entity(
                    "E", [Attribute("name", type: .string)],
                    [Relationship("name", destination: "E")])
            ]),
        ValidationRuleCase(
            "redeclared-property", .error, entity: "Student", property: "name",
            message: "inherited from entity 'Person'",
            [
                ValidationFixture.entity("Person", [Attribute("name", type: .string)]),
                ValidationFixture.entity(
                    "Student", parent: "Person", [Attribute("name", type: .string)]),
            ]),
        ValidationRuleCase(
            "property-name-case", .warning, entity: "E", property: "Name",
            ValidationFixture.one(Attribute("Name", type: .string))),
        ValidationRuleCase(
            "reserved-name", .error, entity: "E", property: "description",
            ValidationFixture.one(Attribute("description", type: .string))),
        ValidationRuleCase(
            "reserved-name", .error, entity: "E", property: "objectID",
            ValidationFixture.one(Attribute("objectID", type: .string))),
        ValidationRuleCase(
            "shadowing-name", .warning, entity: "E", property: "deleted",
            ValidationFixture.one(Attribute("deleted", type: .boolean))),
        ValidationRuleCase(
            "unknown-destination-entity", .error, entity: "A", property: "b", message: "'Ghost'",
            [
                ValidationFixture.entity(
                    "A", [], [Relationship("b", destination: "Ghost", inverse: "a")])
            ]),
        ValidationRuleCase(
            "missing-inverse", .warning, entity: "A", property: "b",
            [ValidationFixture.entity("A", [], [Relationship("b", destination: "B")]), Entity("B")]),
        ValidationRuleCase(
            "unknown-inverse", .error, entity: "A", property: "b", message: "'nothing'",
            [
                ValidationFixture.entity(
                    "A", [], [Relationship("b", destination: "B", inverse: "nothing")]),
                Entity("B"),
            ]),
        ValidationRuleCase(
            "asymmetric-inverse", .warning, entity: "A", property: "b",
            message: "whose inverse is 'other' instead of 'b'; the two sides are not kept in step",
            [
                ValidationFixture.entity(
                    "A", [], [Relationship("b", destination: "B", inverse: "a")]),
                ValidationFixture.entity(
                    "B", [], [Relationship("a", destination: "A", inverse: "other")]),
            ]),
        ValidationRuleCase(
            "asymmetric-inverse", .warning, entity: "Teacher", property: "courses",
            message: "whose destination is 'Student'",
            [
                Entity("Person"),
                ValidationFixture.entity(
                    "Teacher", parent: "Person", [],
                    [
                        Relationship(
                            "courses", destination: "Course", toMany: true, inverse: "people")
                    ]),
                ValidationFixture.entity(
                    "Student", parent: "Person", [],
                    [
                        Relationship(
                            "courses", destination: "Course", toMany: true, inverse: "people")
                    ]),
                ValidationFixture.entity(
                    "Course", [],
                    [
                        Relationship(
                            "people", destination: "Student", toMany: true, inverse: "courses")
                    ]),
            ]),
        ValidationRuleCase(
            "inverse-entity-mismatch", .error, entity: "A", property: "b", message: "'C'",
            [
                ValidationFixture.entity(
                    "A", [],
                    [
                        ValidationFixture.relationship("b", to: "B", inverse: "a") {
                            $0.inverseEntityName = "C"
                        }
                    ]),
                ValidationFixture.entity(
                    "B", [], [Relationship("a", destination: "A", inverse: "b")]),
                Entity("C"),
            ]),
        ValidationRuleCase(
            "invalid-count", .warning, entity: "B", property: "items", message: "'lots'",
            ValidationFixture.pair().map { entity in
                var entity = entity
                if entity.name == "B" { entity.relationships[0].maxCountString = "lots" }
                return entity
            }),
        ValidationRuleCase(
            "min-count-greater-than-max-count", .error, entity: "B", property: "items",
            message: "minimum count 5 greater than its maximum count 3",
            ValidationFixture.pair().map { entity in
                var entity = entity
                if entity.name == "B" {
                    entity.relationships[0].minCountString = "5"
                    entity.relationships[0].maxCountString = "3"
                }
                return entity
            }),
        ValidationRuleCase(
            "ordered-to-one", .warning, entity: "A", property: "b",
            ValidationFixture.pair().map { entity in
                var entity = entity
                if entity.name == "A" { entity.relationships[0].isOrdered = true }
                return entity
            }),
        ValidationRuleCase(
            "to-one-max-count", .warning, entity: "A", property: "b", message: "'2'",
            ValidationFixture.pair().map { entity in
                var entity = entity
                if entity.name == "A" { entity.relationships[0].maxCountString = "2" }
                return entity
            }),
        ValidationRuleCase(
            "unknown-delete-rule", .warning, entity: "A", property: "b", message: "'Explode'",
            ValidationFixture.pair().map { entity in
                var entity = entity
                if entity.name == "A" { entity.relationships[0].unknownDeleteRule = "Explode" }
                return entity
            }),
        ValidationRuleCase(
            "unknown-attribute-type", .error, entity: "E", property: "x", message: "'string'",
            ValidationFixture.one(Attribute("x", type: .unknown("string")))),
        ValidationRuleCase(
            "missing-attribute-type", .error, entity: "E", property: "x",
            ValidationFixture.one(Attribute("x", type: .undefined))),
        ValidationRuleCase(
            "unknown-composite", .error, entity: "E", property: "x", message: "'Address'",
            ValidationFixture.one(
                ValidationFixture.attribute("x", .composite) { $0.compositeName = "Address" })),
        ValidationRuleCase(
            "lenient-default-value", .warning, entity: "E", property: "x",
            message: "Core Data reads it as 0",
            ValidationFixture.one(Attribute("x", type: .integer16, defaultValueString: "0.0"))),
        ValidationRuleCase(
            "lenient-default-value", .warning, entity: "E", property: "x",
            message: "reads it as 0",
            ValidationFixture.one(Attribute("x", type: .integer64, defaultValueString: "NO"))),
        ValidationRuleCase(
            "lenient-default-value", .warning, entity: "E", property: "x",
            message: "reads it as YES",
            ValidationFixture.one(Attribute("x", type: .boolean, defaultValueString: "100"))),
        ValidationRuleCase(
            "lenient-default-value", .warning, entity: "E", property: "x",
            message: "reads it as NO",
            ValidationFixture.one(Attribute("x", type: .boolean, defaultValueString: "0"))),
        ValidationRuleCase(
            "lenient-default-value", .warning, entity: "E", property: "x",
            message: "uses defaultDateTimeInterval 284000000",
            ValidationFixture.one(
                ValidationFixture.attribute("x", .date) {
                    $0.defaultValueString = "January 1, 2010"
                    $0.defaultDateTimeInterval = 284_000_000
                })),
        ValidationRuleCase(
            "lenient-default-value", .warning, entity: "E", property: "x",
            message: "reads it as 283996800 (2010-01-01T00:00:00Z)",
            ValidationFixture.one(
                ValidationFixture.attribute("x", .date) { $0.defaultValueString = "283996800" })
        ),
        ValidationRuleCase(
            "lenient-default-value", .warning, entity: "E", property: "x",
            message: "reads it as 0",
            ValidationFixture.one(Attribute("x", type: .integer32, defaultValueString: "many"))),
        ValidationRuleCase(
            "ignored-default-value", .warning, entity: "E", property: "x", message: "'empy'",
            ValidationFixture.one(Attribute("x", type: .uuid, defaultValueString: "empy"))),
        ValidationRuleCase(
            "ignored-default-value", .warning, entity: "E", property: "x",
            message: "cannot be read as a Date",
            ValidationFixture.one(
                Attribute("x", type: .date, defaultValueString: "January 1, 2010"))),
        ValidationRuleCase(
            "ignored-default-value", .warning, entity: "E", property: "x",
            message: "cannot be read as a Binary",
            ValidationFixture.one(Attribute("x", type: .binary, defaultValueString: "many"))),
        ValidationRuleCase(
            "default-value-out-of-range", .error, entity: "E", property: "x",
            message: "-32768...32767",
            ValidationFixture.one(Attribute("x", type: .integer16, defaultValueString: "70000"))),
        ValidationRuleCase(
            "default-value-out-of-range", .error, entity: "E", property: "x",
            ValidationFixture.one(
                Attribute("x", type: .integer64, defaultValueString: "99999999999999999999"))),
        ValidationRuleCase(
            "default-outside-min-max", .warning, entity: "E", property: "x", message: "10...20",
            ValidationFixture.one(
                ValidationFixture.attribute("x", .integer32) {
                    $0.defaultValueString = "5"
                    $0.minValueString = "10"
                    $0.maxValueString = "20"
                })),
        ValidationRuleCase(
            "invalid-min-max", .warning, entity: "E", property: "x", message: "'low'",
            ValidationFixture.one(
                ValidationFixture.attribute("x", .double) { $0.minValueString = "low" })),
        ValidationRuleCase(
            "invalid-min-max", .warning, entity: "E", property: "x", message: "'-1'",
            ValidationFixture.one(
                ValidationFixture.attribute("x", .string) { $0.maxValueString = "-1" })),
        ValidationRuleCase(
            "invalid-min-max", .warning, entity: "E", property: "x", message: "minDateTimeInterval",
            ValidationFixture.one(
                ValidationFixture.attribute("x", .date) { $0.minValueString = "12/4/2013" })),
        ValidationRuleCase(
            "min-greater-than-max", .error, entity: "E", property: "x",
            message: "minimum value 10 of 'E.x' is greater than its maximum value 2",
            ValidationFixture.one(
                ValidationFixture.attribute("x", .float) {
                    $0.minValueString = "10"
                    $0.maxValueString = "2"
                })),
        ValidationRuleCase(
            "min-greater-than-max", .error, entity: "E", property: "x",
            message: "minimum length 8",
            ValidationFixture.one(
                ValidationFixture.attribute("x", .string) {
                    $0.minValueString = "8"
                    $0.maxValueString = "4"
                })),
        ValidationRuleCase(
            "min-greater-than-max", .error, entity: "E", property: "x", message: "minimum date",
            ValidationFixture.one(
                ValidationFixture.attribute("x", .date) {
                    $0.minDateTimeInterval = 100
                    $0.maxDateTimeInterval = -100
                })),
        ValidationRuleCase(
            "invalid-regular-expression", .error, entity: "E", property: "x", message: "'[a-'",
            ValidationFixture.one(
                ValidationFixture.attribute("x", .string) { $0.regularExpression = "[a-" })),
        ValidationRuleCase(
            "missing-derivation-expression", .error, entity: "E", property: "x",
            ValidationFixture.one(
                ValidationFixture.attribute("x", .integer64) { $0.isDerived = true })),
        ValidationRuleCase(
            "invalid-derivation-expression", .error, entity: "E", property: "x",
            message: "does not parse at offset",
            ValidationFixture.one(
                ValidationFixture.attribute("x", .integer64) {
                    $0.isDerived = true
                    $0.derivationExpression = "chapters.@count +"
                })),
        ValidationRuleCase(
            "invalid-predicate", .error, entity: "E", message: "at offset 7",
            [Entity("E", attributes: [Attribute("name", type: .string)])],
            templates: [FetchTemplate("byName", entity: "E", predicate: "name ==")]),
        ValidationRuleCase(
            "invalid-predicate", .error, entity: "E", property: "related",
            message: "fetched property 'E.related' does not parse",
            [
                ValidationFixture.entity("E") {
                    $0.fetchedProperties = [
                        FetchedProperty(
                            "related",
                            fetchRequest: FetchTemplate(
                                "f", entity: "E", predicate: "$FETCH_SOURCE.id == id AND"))
                    ]
                }
            ]),
        ValidationRuleCase(
            "unknown-constraint-property", .error, entity: "E", property: "code",
            message: "uniqueness constraint (code)",
            [ValidationFixture.entity("E") { $0.uniquenessConstraints = [["code"]] }]),
        ValidationRuleCase(
            "invalid-constraint-property", .error, entity: "B", property: "items",
            message: "a to-many relationship",
            ValidationFixture.pair().map { entity in
                var entity = entity
                if entity.name == "B" { entity.uniquenessConstraints = [["items"]] }
                return entity
            }),
        ValidationRuleCase(
            "invalid-constraint-property", .error, entity: "E", property: "x",
            message: "a transient attribute",
            [
                ValidationFixture.entity("E", [Attribute("x", type: .string, isTransient: true)]) {
                    $0.uniquenessConstraints = [["x"]]
                }
            ]),
        ValidationRuleCase(
            "unknown-index-property", .error, entity: "E", property: "code",
            message: "fetch index 'byCode'",
            [
                ValidationFixture.entity("E") {
                    $0.fetchIndexes = [FetchIndex("byCode", elements: [.init(property: "code")])]
                }
            ]),
        ValidationRuleCase(
            "unknown-index-property", .error, entity: "E", property: "code",
            message: "compound index (code)",
            [ValidationFixture.entity("E") { $0.compoundIndexes = [["code"]] }]),
        ValidationRuleCase(
            "invalid-index-property", .warning, entity: "B", property: "items",
            message: "a to-many relationship; only stored attributes and to-one relationships "
                + "can be indexed, so the index leaves it out",
            ValidationFixture.pair().map { entity in
                var entity = entity
                if entity.name == "B" {
                    entity.fetchIndexes = [FetchIndex("i", elements: [.init(property: "items")])]
                }
                return entity
            }),
        ValidationRuleCase(
            "invalid-index-property", .warning, entity: "B", property: "items",
            message: "compound index (items)",
            ValidationFixture.pair().map { entity in
                var entity = entity
                if entity.name == "B" { entity.compoundIndexes = [["items"]] }
                return entity
            }),
        ValidationRuleCase(
            "invalid-index-property", .warning, entity: "E", property: "x",
            message: "a transient attribute",
            [
                ValidationFixture.entity("E", [Attribute("x", type: .string, isTransient: true)]) {
                    $0.fetchIndexes = [FetchIndex("byX", elements: [.init(property: "x")])]
                }
            ]),
        ValidationRuleCase(
            "empty-index", .warning, entity: "E", message: "'nothing'",
            [
                ValidationFixture.entity("E") {
                    $0.fetchIndexes = [FetchIndex("nothing", elements: [])]
                }
            ]),
        ValidationRuleCase(
            "duplicate-fetch-template", .error, entity: nil, message: "'all'", [Entity("E")],
            templates: [FetchTemplate("all", entity: "E"), FetchTemplate("all", entity: "E")]),
        ValidationRuleCase(
            "unknown-fetch-entity", .error, entity: "Ghost", message: "'Ghost'", [Entity("E")],
            templates: [FetchTemplate("all", entity: "Ghost")]),
        ValidationRuleCase(
            "unknown-fetch-entity", .error, entity: "E", property: "related", message: "'Ghost'",
            [
                ValidationFixture.entity("E") {
                    $0.fetchedProperties = [
                        FetchedProperty(
                            "related", fetchRequest: FetchTemplate("f", entity: "Ghost"))
                    ]
                }
            ]),
        ValidationRuleCase(
            "duplicate-configuration", .error, entity: nil, message: "'Cloud'", [Entity("E")],
            configurations: [
                Configuration("Cloud", entities: []), Configuration("Cloud", entities: []),
            ]),
        ValidationRuleCase(
            "unknown-configuration-entity", .error, entity: "Ghost", message: "'Ghost'",
            [Entity("E")], configurations: [Configuration("Local", entities: ["E", "Ghost"])]),
        ValidationRuleCase(
            "duplicate-configuration-entity", .warning, entity: "E", message: "twice",
            [Entity("E")], configurations: [Configuration("Local", entities: ["E", "E"])]),
    ]

    @Test("each rule fires with its id, severity, entity and property", arguments: ruleCases)
    func ruleFires(_ rule: ValidationRuleCase) throws {
        let diagnostics = rule.model.validate()
        let diagnostic = try #require(
            diagnostics.first {
                $0.ruleID == rule.ruleID
                    && (rule.messageContains.isEmpty || $0.message.contains(rule.messageContains))
            },
            "got \(diagnostics.map(\.description))")
        #expect(diagnostic.severity == rule.severity)
        #expect(diagnostic.entity == rule.entity)
        #expect(diagnostic.property == rule.property)
        #expect(diagnostic.description.hasSuffix("[\(rule.ruleID)]"))
    }

    @Test("every documented rule id has a case above")
    func everyRuleIsCovered() throws {
        let severities = try Self.documentedSeverities()
        let documented = Set(severities.keys)
        let covered = Set(Self.ruleCases.map(\.ruleID))
        for rule in Self.ruleCases {
            #expect(severities[rule.ruleID] == rule.severity.rawValue, "\(rule.ruleID)")
        }
        #expect(documented.subtracting(covered).isEmpty)
        #expect(covered.isSubset(of: documented))
    }

    @Test("an inheritance cycle is reported once per entity on it, not for its heirs")
    func cycleReportedPerMember() {
        let model = EntityModel(entities: [
            Entity("A", parent: "B"), Entity("B", parent: "A"), Entity("C", parent: "A"),
        ])
        let cycles = model.validate().filter { $0.ruleID == "inheritance-cycle" }
        #expect(cycles.compactMap(\.entity).sorted() == ["A", "B"])
    }

    @Test("a deep hierarchy: a property redeclared 2,000 levels down names its declarer")
    func deepHierarchy() {
        var entities = [Entity("E0", attributes: [Attribute("root", type: .string)])]
        for level in 1..<2000 {
            entities.append(
                Entity(
                    "E\(level)", parent: "E\(level - 1)",
                    attributes: [Attribute("a\(level)", type: .string)]))
        }
        entities[1999].attributes.append(Attribute("root", type: .string))
        let diagnostics = EntityModel(entities: entities).validate()
        #expect(diagnostics.map(\.ruleID) == ["redeclared-property"])
        #expect(diagnostics.first?.message.contains("from entity 'E0'") == true)
        #expect(diagnostics.first?.entity == "E1999")
    }

    @Test("values real models rely on are accepted without diagnostics")
    func acceptedShapes() {
        let model = EntityModel(entities: [
            ValidationFixture.entity(
                "E",
                [
                    Attribute("count", type: .integer32, defaultValueString: "-12"),
                    Attribute("flag", type: .boolean, defaultValueString: "NO"),
                    Attribute("ratio", type: .float, defaultValueString: "0.5"),
                    Attribute("price", type: .decimal, defaultValueString: "1e3"),
                    Attribute("blank", type: .string, defaultValueString: " "),
                    Attribute("link", type: .uri, defaultValueString: "https://example.com"),
                    Attribute(
                        "key", type: .uuid,
                        defaultValueString: "F0E6C6B0-3D5C-4E0A-9B1E-000000000001"),
                ],
                [
                    ValidationFixture.relationship("parent", to: "E", inverse: "children") {
                        $0.minCountString = "1"
                        $0.maxCountString = "1"
                    },
                    ValidationFixture.relationship(
                        "children", to: "E", toMany: true, inverse: "parent"
                    ) {
                        $0.minCountString = "1"
                        $0.maxCountString = "10"
                    },
                ])
        ])
        #expect(model.validate().isEmpty, "\(model.validate().map(\.description))")
    }

    @Test("an inverse declared on the destination's parent is found")
    func inheritedInverse() {
        let model = EntityModel(entities: [
            ValidationFixture.entity(
                "Person", [], [Relationship("school", destination: "School", inverse: "people")]),
            Entity("Student", parent: "Person"),
            ValidationFixture.entity(
                "School", [],
                [Relationship("people", destination: "Student", toMany: true, inverse: "school")]),
        ])
        let diagnostics = model.validate()
        // School.people points at Student, whose inherited `school` points back: consistent.
        #expect(!diagnostics.contains { $0.ruleID == "unknown-inverse" })
        #expect(!diagnostics.contains { $0.entity == "School" })
    }

    @Test("load diagnostics come first, then the rules")
    func loadDiagnosticsFirst() {
        var model = EntityModel(entities: [Entity("A"), Entity("A")])
        let loaded = Diagnostic(.warning, "unknown-xml-attribute", "attribute 'foo' is ignored")
        model.loadDiagnostics = [loaded]
        let diagnostics = model.validate()
        #expect(diagnostics.first == loaded)
        #expect(diagnostics.dropFirst().map(\.ruleID) == ["duplicate-entity"])
    }

    /// The rule ids listed in `Docs/ValidationRules.md`, with their documented severity.
    static func documentedSeverities() throws -> [String: String] {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let text = try String(
            contentsOf: root.appendingPathComponent("Docs/ValidationRules.md"), encoding: .utf8)
        var severities: [String: String] = [:]
        for line in text.split(separator: "\n") where line.hasPrefix("| `") {
            let cells = line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
            guard cells.count >= 2 else { continue }
            severities[cells[0].trimmingCharacters(in: CharacterSet(charactersIn: "`"))] = cells[1]
        }
        return severities
    }
}

@Suite("Model validation of loaded files")
struct LoadedModelValidationTests {
    /// Line 3 onwards: each element on its own line, indented 4 spaces per level.
    static let xml = """
        <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
        <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" lastSavedToolsVersion="23231" systemVersion="24A335" minimumToolsVersion="Automatic" sourceLanguage="Swift" userDefinedModelVersionIdentifier="">
            <entity name="Person" representedClassName="Person" syncable="YES">
                <attribute name="age" optional="YES" attributeType="Integer 16" defaultValueString="0.0" usesScalarValueType="YES"/>
                <attribute name="description" optional="YES" attributeType="String"/>
                <relationship name="pets" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Pet"/>
                <relationship name="home" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="House" inverseName="owner" inverseEntity="House"/>
                <fetchIndex name="byNickname">
                    <fetchIndexElement property="nickname" type="Binary" order="ascending"/>
                </fetchIndex>
                <uniquenessConstraints>
                    <uniquenessConstraint>
                        <constraint value="pets"/>
                    </uniquenessConstraint>
                </uniquenessConstraints>
            </entity>
            <entity name="Pet" representedClassName="Pet" parentEntity="Animal" syncable="YES">
                <attribute name="legs" optional="YES" attributeType="Integer 16" minValueString="4" maxValueString="2" usesScalarValueType="YES"/>
                <fetchedProperty name="friends" optional="YES">
                    <fetchRequest name="fetchedPropertyFetchRequest" entity="Friend"/>
                </fetchedProperty>
            </entity>
            <entity name="Pet" representedClassName="Pet" syncable="YES"/>
            <fetchRequest name="adults" entity="Adult" predicateString="age &gt;= 18"/>
            <configuration name="Local">
                <memberEntity name="Ghost"/>
            </configuration>
        </model>
        """

    /// (rule id, line, column, entity, property) expected from `xml`.
    static let expected: [(String, Int, Int, String?, String?)] = [
        ("lenient-default-value", 4, 9, "Person", "age"),
        ("reserved-name", 5, 9, "Person", "description"),
        ("missing-inverse", 6, 9, "Person", "pets"),
        ("unknown-destination-entity", 7, 9, "Person", "home"),
        ("unknown-index-property", 8, 9, "Person", "nickname"),
        ("invalid-constraint-property", 3, 5, "Person", "pets"),
        ("unknown-parent-entity", 17, 5, "Pet", nil),
        ("min-greater-than-max", 18, 9, "Pet", "legs"),
        ("unknown-fetch-entity", 19, 9, "Pet", "friends"),
        ("duplicate-entity", 23, 5, "Pet", nil),
        ("unknown-fetch-entity", 24, 5, "Adult", nil),
        ("unknown-configuration-entity", 25, 5, "Ghost", nil),
    ]

    @Test("diagnostics point at the element concerned: file, line and column")
    func locations() throws {
        let model = try EntityModel(
            xmlData: Data(Self.xml.utf8), file: "People.xcdatamodel/contents")
        let diagnostics = model.validate()
        for (ruleID, line, column, entity, property) in Self.expected {
            let found = diagnostics.first {
                $0.ruleID == ruleID && $0.entity == entity && $0.property == property
            }
            let diagnostic = try #require(
                found, "\(ruleID) not in \(diagnostics.map(\.description))")
            #expect(diagnostic.location?.file == "People.xcdatamodel/contents", "\(ruleID)")
            #expect(diagnostic.location?.line == line, "\(ruleID)")
            #expect(diagnostic.location?.column == column, "\(ruleID)")
            #expect(
                diagnostic.description.hasPrefix("People.xcdatamodel/contents:\(line):\(column): "))
        }
        // File order: sorted by line.
        let lines = diagnostics.compactMap(\.location?.line)
        #expect(lines == lines.sorted())
    }

    @Test("what the loader reports is not repeated by the rules")
    func loaderFindingsNotRepeated() throws {
        let xml = """
            <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
            <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0">
                <entity name="A" syncable="YES">
                    <relationship name="b" optional="YES" maxCount="1" deletionRule="Explode" destinationEntity="A" inverseName="b" inverseEntity="A"/>
                    <relationship name="c" optional="YES" maxCount="1" deletionRule="Nullify" inverseName="c"/>
                </entity>
            </model>
            """
        let model = try EntityModel(xmlData: Data(xml.utf8), file: "A/contents")
        let diagnostics = model.validate()
        #expect(diagnostics.filter { $0.ruleID == "unknown-delete-rule" }.count == 1)
        #expect(!diagnostics.contains { $0.ruleID == "unknown-destination-entity" })
        #expect(
            diagnostics.prefix(model.loadDiagnostics.count).elementsEqual(model.loadDiagnostics))
    }

    /// The shared corpus of real Xcode models, when present.
    static let corpusModels: URL? = TestSupport.corpus?.appendingPathComponent("xcdatamodel")

    @Test(
        "real Xcode models from the corpus have no validation errors, and their known oddities are warnings",
        .enabled(if: corpusModels != nil))
    func corpusHasNoErrors() throws {
        let folder = try #require(Self.corpusModels)
        var findings: [Diagnostic] = []
        var checked = 0
        for contents in TestSupport.contentsFiles(below: folder) {
            // Loading is the loader's tests' business; judge only what loads.
            guard let model = try? EntityModel(contentsOf: contents) else { continue }
            checked += 1
            findings += model.validate()
        }
        #expect(checked > 50)
        let errors = findings.filter { $0.severity == .error }
        #expect(errors.isEmpty, "\(errors.prefix(5).map(\.description))")
        func found(_ ruleID: String, _ entity: String, _ property: String) -> Bool {
            findings.contains {
                $0.ruleID == ruleID && $0.entity == entity && $0.property == property
                    && $0.severity == .warning
            }
        }
        // model-format.md §9: ordered to-ones (rpgapp, frcscout), `deleted` (simplenote),
        // integer defaults written "0.0" (rpgapp).
        #expect(found("ordered-to-one", "ItemHandler", "item"))
        #expect(found("ordered-to-one", "Team", "regionalFirstPickList"))
        #expect(found("shadowing-name", "Note", "deleted"))
        #expect(found("lenient-default-value", "Character", "health"))
    }
}
