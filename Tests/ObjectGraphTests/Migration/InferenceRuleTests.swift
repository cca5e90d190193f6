import Foundation
import ObjectGraph
import Testing

/// One test per change Core Data's inferred mapping accepts, on models built in code.
@Suite("Inferred mapping: lightweight rules")
struct InferenceRuleTests {
    typealias F = InferenceFixtures

    static let person = F.entity(
        "Person", [F.attribute("name", .string), F.attribute("age", .integer16)])

    @Test("an unchanged model copies every entity and describes no change")
    func unchanged() throws {
        let mapping = try F.infer([Self.person], [Self.person])
        #expect(mapping.isInferred)
        #expect(mapping.sourceVersionName == "v1" && mapping.destinationVersionName == "v2")
        #expect(mapping.entityMappings.map(\.kind) == [.copy])
        let people = try #require(mapping.entityMapping(named: "PersonToPerson"))
        #expect(people.sourceEntityVersionHash == people.destinationEntityVersionHash)
        #expect(people.sourceEntityVersionHash?.count == 32)
        #expect(F.origins(people) == ["name": "name", "age": "age"])
        #expect(mapping.changeDescriptions == [])
    }

    @Test("an added attribute is new (nil expression, default applies) and the entity transforms")
    func addAttribute() throws {
        let mood = F.entity("Mood", [F.attribute("name", .string)])
        let newMood = F.entity(
            "Mood", [F.attribute("name", .string), F.attribute("rating", .integer16, default: "0")])
        let mapping = try F.infer([mood], [newMood])
        let moods = try #require(mapping.entityMapping(named: "MoodToMood"))
        #expect(moods.kind == .transform)
        #expect(moods.attributeMappings.map(\.name) == ["name", "rating"])
        #expect(moods.attributeMappings[1].valueExpression == nil)
        #expect(
            mapping.changeDescriptions == ["Mood: add attribute rating (Integer 16, default 0)"])
    }

    @Test("a removed attribute has no mapping")
    func removeAttribute() throws {
        let mapping = try F.infer(
            [Self.person], [F.entity("Person", [F.attribute("name", .string)])])
        #expect(F.origins(mapping.entityMapping(named: "PersonToPerson")) == ["name": "name"])
        #expect(mapping.changeDescriptions == ["Person: remove attribute age"])
    }

    @Test("added and removed entities get add and remove mappings")
    func addAndRemoveEntities() throws {
        let pet = F.entity("Pet", [F.attribute("name", .string)])
        let toy = F.entity("Toy", [F.attribute("kind", .string)])
        let mapping = try F.infer([Self.person, toy], [Self.person, pet])
        #expect(mapping.entityMappings.map(\.kind) == [.copy, .add, .remove])
        let pets = try #require(mapping.entityMapping(named: "Pet"))
        #expect(pets.sourceEntityName == nil && pets.destinationEntityName == "Pet")
        #expect(pets.attributeMappings.map(\.name) == ["name"])
        #expect(pets.attributeMappings[0].valueExpression == nil)
        let toys = try #require(mapping.entityMapping(named: "Toy"))
        #expect(toys.sourceEntityName == "Toy" && toys.destinationEntityName == nil)
        #expect(mapping.changeDescriptions == ["add entity Pet", "remove entity Toy"])
    }

    @Test("an entity renamed through its renaming identifier maps from the old entity")
    func renameEntity() throws {
        let car = F.entity("Car", [F.attribute("color", .string)])
        let automobile = F.entity("Automobile", renamedFrom: "Car", [F.attribute("color", .string)])
        let mapping = try F.infer([car], [automobile])
        #expect(mapping.entityMappings.count == 1)
        let cars = try #require(mapping.entityMapping(named: "CarToAutomobile"))
        #expect(cars.kind == .transform)
        #expect(cars.sourceEntityName == "Car" && cars.destinationEntityName == "Automobile")
        #expect(mapping.changeDescriptions == ["rename entity Car → Automobile"])
    }

    @Test("an attribute renamed through its renaming identifier takes $source.<old name>")
    func renameAttribute() throws {
        let car = F.entity("Car", [F.attribute("color", .string)])
        let newCar = F.entity("Car", [F.attribute("paintColor", .string, renamedFrom: "color")])
        let mapping = try F.infer([car], [newCar])
        let cars = try #require(mapping.entityMapping(named: "CarToCar"))
        #expect(
            cars.attributeMappings[0].valueExpression == (try Expression(format: "$source.color")))
        #expect(cars.attributeMappings[0].sourcePropertyName == "color")
        #expect(mapping.changeDescriptions == ["Car: rename color → paintColor"])
    }

    @Test("renames chain: an identifier naming the first name still matches after a second rename")
    func renameTwice() throws {
        let v2 = F.entity("Car", [F.attribute("paintColor", .string, renamedFrom: "color")])
        let v3 = F.entity("Car", [F.attribute("finish", .string, renamedFrom: "color")])
        let mapping = try F.infer([v2], [v3])
        #expect(F.origins(mapping.entityMapping(named: "CarToCar")) == ["finish": "paintColor"])
    }

    @Test("a relationship renamed through its renaming identifier maps from the old one")
    func renameRelationship() throws {
        var owners = Relationship("owners", destination: "Person", toMany: true)
        owners.renamingIdentifier = "people"
        let old = F.entity("Car", [], [Relationship("people", destination: "Person", toMany: true)])
        let mapping = try F.infer(
            [old, Self.person], [F.entity("Car", [], [owners]), Self.person])
        let cars = try #require(mapping.entityMapping(named: "CarToCar"))
        #expect(cars.relationshipMappings.map(\.name) == ["owners"])
        #expect(cars.relationshipMappings[0].sourcePropertyName == "people")
        #expect(mapping.changeDescriptions == ["Car: rename people → owners"])
    }

    @Test("optional → required records the default; without one it is left to the migration")
    func optionalToRequired() throws {
        let required = F.entity(
            "Person",
            [
                F.attribute("name", .string, optional: false, default: ""),
                F.attribute("age", .integer16, optional: false),
            ])
        let mapping = try F.infer([Self.person], [required])
        #expect(mapping.entityMapping(named: "PersonToPerson")?.kind == .transform)
        #expect(
            mapping.changeDescriptions == [
                #"Person.name: optional → required (default "")"#,
                "Person.age: optional → required (no default)",
            ])
    }

    @Test("required → optional")
    func requiredToOptional() throws {
        let required = F.entity("Person", [F.attribute("name", .string, optional: false)])
        let mapping = try F.infer([required], [F.entity("Person", [F.attribute("name", .string)])])
        #expect(mapping.changeDescriptions == ["Person.name: required → optional"])
    }

    @Test("to-one ↔ to-many and ordered ↔ unordered")
    func relationshipShapes() throws {
        let toOne = F.entity("Team", [], [Relationship("lead", destination: "Person")])
        let toMany = F.entity(
            "Team", [], [Relationship("lead", destination: "Person", toMany: true)])
        let ordered = F.entity(
            "Team", [], [Relationship("lead", destination: "Person", toMany: true, isOrdered: true)]
        )
        #expect(
            try F.infer([toOne, Self.person], [toMany, Self.person]).changeDescriptions == [
                "Team.lead: to-one → to-many", "Team.lead: maximum count 1 → unbounded",
            ])
        #expect(
            try F.infer([toMany, Self.person], [toOne, Self.person]).changeDescriptions == [
                "Team.lead: to-many → to-one", "Team.lead: maximum count unbounded → 1",
            ])
        #expect(
            try F.infer([toMany, Self.person], [ordered, Self.person]).changeDescriptions == [
                "Team.lead: unordered → ordered"
            ])
        #expect(
            try F.infer([ordered, Self.person], [toMany, Self.person]).changeDescriptions == [
                "Team.lead: ordered → unordered"
            ])
    }

    @Test("a new parent entity takes properties moved up from its children")
    func newParent() throws {
        let dog = F.entity("Dog", [F.attribute("name", .string), F.attribute("barks", .boolean)])
        let animal = F.entity("Animal", [F.attribute("name", .string)])
        let newDog = F.entity("Dog", parent: "Animal", [F.attribute("barks", .boolean)])
        let mapping = try F.infer([dog], [animal, newDog])
        #expect(mapping.entityMappings.map(\.kind) == [.add, .transform])
        #expect(
            F.origins(mapping.entityMapping(named: "DogToDog")) == [
                "name": "name", "barks": "barks",
            ])
        #expect(
            mapping.changeDescriptions == [
                "add entity Animal", "Dog: parent none → Animal",
                "Dog: move name up to Animal.name",
            ])
    }

    @Test("a property moved down from the parent is described as renamed from the parent's")
    func movedDown() throws {
        let countries = Relationship("countries", destination: "GeographicRegion", toMany: true)
        let region = F.entity("GeographicRegion", [F.attribute("name", .string)], [countries])
        let country = F.entity("Country", parent: "GeographicRegion")
        let newRegion = F.entity("GeographicRegion", [F.attribute("name", .string)])
        let newCountry = F.entity("Country", parent: "GeographicRegion", [], [countries])
        let mapping = try F.infer([region, country], [newRegion, newCountry])
        #expect(
            F.origins(mapping.entityMapping(named: "CountryToCountry")) == [
                "name": "name", "countries": "countries",
            ])
        #expect(
            mapping.changeDescriptions == [
                "GeographicRegion: remove relationship countries",
                "Country: rename GeographicRegion.countries → countries",
            ])
    }

    @Test("an entity moved out of its hierarchy keeps its inherited values")
    func moveOut() throws {
        let animal = F.entity("Animal", [F.attribute("name", .string)])
        let dog = F.entity("Dog", parent: "Animal", [F.attribute("barks", .boolean)])
        let freeDog = F.entity(
            "Dog", [F.attribute("name", .string), F.attribute("barks", .boolean)])
        let mapping = try F.infer([animal, dog], [animal, freeDog])
        #expect(
            F.origins(mapping.entityMapping(named: "DogToDog")) == [
                "name": "name", "barks": "barks",
            ])
        #expect(
            mapping.changeDescriptions == [
                "Dog: parent Animal → none", "Dog: rename Animal.name → name",
            ])
    }

    @Test("entities of separate hierarchies cannot be brought under one parent")
    func mergeHierarchiesRefused() throws {
        let cat = F.entity("Cat", [F.attribute("name", .string)])
        let dog = F.entity("Dog", [F.attribute("name", .string)])
        let animal = F.entity("Animal", [F.attribute("name", .string)])
        let error = F.inferenceError(
            [cat, dog],
            [animal, F.entity("Cat", parent: "Animal"), F.entity("Dog", parent: "Animal")])
        #expect(F.place(of: error)?.entity == "Dog")
        #expect(F.place(of: error)?.property == nil)
        #expect(error?.description.contains("separate hierarchies (Dog and Cat)") == true)
        // An existing entity moved under a new parent alone is fine.
        #expect(F.inferenceError([cat], [animal, F.entity("Cat", parent: "Animal")]) == nil)
    }

    @Test("indexes and uniqueness constraints added or removed")
    func indexesAndUniqueness() throws {
        var indexed = F.entity(
            "Person", [F.attribute("name", .string), F.attribute("age", .integer16)])
        indexed.uniquenessConstraints = [["name"]]
        indexed.fetchIndexes = [
            FetchIndex("byAge", elements: [FetchIndex.Element(property: "age")])
        ]
        indexed.attributes[0].isIndexed = true
        let added = try F.infer([Self.person], [indexed])
        #expect(added.entityMapping(named: "PersonToPerson")?.kind == .transform)
        #expect(
            added.changeDescriptions == [
                "Person: add uniqueness constraint (name)", "Person: add index byAge (age)",
                "Person.name: not indexed → indexed",
            ])
        #expect(
            try F.infer([indexed], [Self.person]).changeDescriptions == [
                "Person: remove uniqueness constraint (name)", "Person: remove index byAge (age)",
                "Person.name: indexed → not indexed",
            ])
    }

    @Test("an accepted type change converts; the entity transforms")
    func acceptedTypeChange() throws {
        let wide = F.entity(
            "Person", [F.attribute("name", .string), F.attribute("age", .integer64)])
        let mapping = try F.infer([Self.person], [wide])
        #expect(mapping.entityMapping(named: "PersonToPerson")?.kind == .transform)
        #expect(F.origins(mapping.entityMapping(named: "PersonToPerson"))["age"] == "age")
        #expect(mapping.changeDescriptions == ["Person.age: type Integer 16 → Integer 64"])
    }

    @Test("a refused type change names the entity and property")
    func refusedTypeChange() throws {
        let dated = F.entity(
            "Person", [F.attribute("name", .date), F.attribute("age", .integer16)])
        let error = F.inferenceError([Self.person], [dated])
        #expect(F.place(of: error)?.entity == "Person")
        #expect(F.place(of: error)?.property == "name")
        #expect(
            error?.description
                == "cannot infer a mapping for Person.name: the type changes from String to Date,"
                + " which an inferred mapping does not convert (use a mapping model)")
    }

    @Test("an attribute that becomes a relationship is refused, naming entity and property")
    func attributeToRelationship() throws {
        let linked = F.entity(
            "Person", [F.attribute("name", .string)], [Relationship("age", destination: "Person")])
        let error = F.inferenceError([Self.person], [linked])
        #expect(F.place(of: error)?.entity == "Person")
        #expect(F.place(of: error)?.property == "age")
    }

    @Test("a relationship may point to an ancestor of its destination, not to an unrelated entity")
    func relationshipDestination() throws {
        let animal = F.entity("Animal", [F.attribute("name", .string)])
        let dog = F.entity("Dog", parent: "Animal")
        let toy = F.entity("Toy", [F.attribute("name", .string)])
        let ownerOfDogs = F.entity(
            "Owner", [], [Relationship("pets", destination: "Dog", toMany: true)])
        let ownerOfAnimals = F.entity(
            "Owner", [], [Relationship("pets", destination: "Animal", toMany: true)])
        let ownerOfToys = F.entity(
            "Owner", [], [Relationship("pets", destination: "Toy", toMany: true)])
        let widened = try F.infer([animal, dog, ownerOfDogs], [animal, dog, ownerOfAnimals])
        #expect(widened.changeDescriptions == ["Owner.pets: destination Dog → Animal"])
        let error = F.inferenceError(
            [animal, dog, toy, ownerOfDogs], [animal, dog, toy, ownerOfToys])
        #expect(F.place(of: error)?.entity == "Owner")
        #expect(F.place(of: error)?.property == "pets")
    }

    @Test("a relationship to a renamed entity follows the rename")
    func relationshipToRenamedEntity() throws {
        let car = F.entity("Car", [F.attribute("color", .string)])
        let owner = F.entity("Owner", [], [Relationship("car", destination: "Car")])
        let automobile = F.entity("Automobile", renamedFrom: "Car", [F.attribute("color", .string)])
        let newOwner = F.entity("Owner", [], [Relationship("car", destination: "Automobile")])
        let mapping = try F.infer([car, owner], [automobile, newOwner])
        #expect(mapping.entityMapping(named: "OwnerToOwner")?.kind == .transform)
        #expect(mapping.changeDescriptions == ["rename entity Car → Automobile"])
    }

    @Test("transient properties are not mapped; one made persistent is new")
    func transients() throws {
        var cache = F.attribute("cache", .string)
        cache.isTransient = true
        let stored = F.attribute("cache", .string)
        let mapping = try F.infer([F.entity("Person", [cache])], [F.entity("Person", [stored])])
        #expect(F.origins(mapping.entityMapping(named: "PersonToPerson")) == ["cache": ""])
        #expect(mapping.changeDescriptions == ["Person: add attribute cache (String)"])
    }
}
