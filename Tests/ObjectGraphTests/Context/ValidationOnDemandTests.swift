import Foundation
import Testing

@testable import ObjectGraph

/// A SQLite store in a new temporary folder (removed with the fixture), with a context whose
/// `Item` and `Owner` objects are of the classes given.
private final class ValidationStore {
    let folder: URL
    let context: ManagedContext

    /// `Item`: `title` (required String, 2–5 UTF-16 units, `[a-z]+`), `count` (Integer 32,
    /// 1–10), `ratio` (Double, 0–1), `when` (Date, 0–1,000,000 s after 2001), `blob` (Binary,
    /// 2–4 bytes), `age` (Integer 16, predicates `SELF >= 0` and `SELF < 150`), `draft`
    /// (transient String, at most 3 units), `owner` (a
    /// required to-one), `tags` (to-many, 2–3 when not empty). `Owner`: `name`, `items` (Deny).
    static let model: EntityModel = {
        var title = Attribute("title", type: .string, isOptional: false).bounded("2", "5")
        title.regularExpression = "[a-z]+"
        var count = Attribute("count", type: .integer32).bounded("1", "10")
        var ratio = Attribute("ratio", type: .double).bounded("0", "1")
        var when = Attribute("when", type: .date)
        when.minDateTimeInterval = 0
        when.maxDateTimeInterval = 1_000_000
        var blob = Attribute("blob", type: .binary).bounded("2", "4")
        var age = Attribute("age", type: .integer16)
        age.validationPredicates = [
            ValidationPredicate(.evaluatedObject >= 0, warning: "an age cannot be negative"),
            ValidationPredicate(.evaluatedObject < 150, warning: "nobody is that old"),
        ]
        var draft = Attribute("draft", type: .string, isTransient: true)
        draft.maxValueString = "3"
        var tags = Relationship("tags", destination: "Tag", toMany: true)
        tags.minCountString = "2"
        tags.maxCountString = "3"
        let item = Entity(
            "Item", attributes: [title, count, ratio, when, blob, age, draft],
            relationships: [
                Relationship("owner", destination: "Owner", inverse: "items", isOptional: false),
                tags,
            ])
        let owner = Entity(
            "Owner", attributes: [Attribute("name", type: .string)],
            relationships: [
                Relationship(
                    "items", destination: "Item", toMany: true, inverse: "owner", deleteRule: .deny)
            ])
        let tag = Entity("Tag", attributes: [Attribute("name", type: .string)])
        return EntityModel(entities: [item, owner, tag])
    }()

    init(item: ManagedObject.Type? = nil, owner: ManagedObject.Type? = nil) throws {
        folder = try TestSupport.makeTemporaryFolder()
        let classes = ManagedObjectClasses()
        if let item { classes.register(item, forEntity: "Item") }
        if let owner { classes.register(owner, forEntity: "Owner") }
        let coordinator = StoreCoordinator(model: Self.model)
        try coordinator.addStore(type: .sqlite, at: folder.appendingPathComponent("store.sqlite"))
        context = ManagedContext(coordinator: coordinator, classes: classes)
    }

    deinit { TestSupport.removeTemporaryFolder(folder) }

    /// An `Item` that passes every rule, with its owner.
    func validItem() throws -> ManagedObject {
        let item = try context.insert("Item")
        try item.set("ok", for: "title")
        try item.setObject(try context.insert("Owner"), for: "owner")
        return item
    }

    /// The problems of a save that must fail validation.
    func saveProblems() -> [ValidationError.Problem] {
        problems {
            do { try context.save() } catch SaveError.validation(let error) { throw error }
        }
    }
}

/// The problems `body` throws as a ``ValidationError`` (recording an issue when it throws
/// something else or nothing).
private func problems(_ body: () throws -> Void) -> [ValidationError.Problem] {
    do {
        try body()
    } catch let error as ValidationError {
        return error.problems
    } catch {
        Issue.record("unexpected error \(error)")
        return []
    }
    Issue.record("validation was expected to fail")
    return []
}

/// The rules (with properties) of `problems`, as `property:rule` texts.
private func rules(_ problems: [ValidationError.Problem]) -> [String] {
    problems.map { "\($0.property ?? "-"):\($0.rule.rawValue)" }
}

/// Keeps the model's rules (`super`) and adds one across properties, for inserts and updates.
private final class CombiningItem: ManagedObject {
    /// A count no larger than the title is long.
    private func checkCountFitsTitle() throws {
        let count = self["count"] as Int? ?? 0
        let length = (self["title"] as String?)?.utf16.count ?? 0
        if count > length {
            throw validationError("a count of \(count) is more than the title's length")
        }
    }
    override func validateForInsert() throws {
        try combiningValidationErrors(
            { try super.validateForInsert() }, { try self.checkCountFitsTitle() })
    }
    override func validateForUpdate() throws {
        try combiningValidationErrors(
            { try super.validateForUpdate() }, { try self.checkCountFitsTitle() })
    }
}

/// Overrides the whole-object checks without calling `super`: the model's rules are skipped.
private final class UncheckedItem: ManagedObject {
    override func validateForInsert() throws {}
    override func validateForUpdate() throws {}
}

/// Adds a rule for `title` (keeping the model's), coerces `title` (trimming spaces), and skips
/// the model's rules for `count` (no `super`).
private final class KeyCheckedItem: ManagedObject {
    override func validateValue(_ value: inout Value, forKey key: String) throws {
        switch key {
        case "count":
            return
        case "title":
            if case .string(let text) = value {
                value = .string(text.trimmingCharacters(in: .whitespaces))
            }
            try super.validateValue(&value, forKey: key)
            if value == "admin" { throw validationError("is reserved", forKey: key, value: value) }
        default:
            try super.validateValue(&value, forKey: key)
        }
    }
}

/// An owner that may always be deleted (its `validateForDelete` does not call `super`), and one
/// that adds a rule to the Deny rules.
private final class AlwaysDeletableOwner: ManagedObject {
    override func validateForDelete() throws {}
}

private final class NamedOwner: ManagedObject {
    override func validateForDelete() throws {
        try combiningValidationErrors(
            { try super.validateForDelete() },
            {
                if self["name"] as String? == "keep" {
                    throw self.validationError("is kept", forKey: "name", value: "keep")
                }
            })
    }
}

/// Counts the calls of its validation methods (each keeps the model's rules).
private final class CountingItem: ManagedObject {
    var objectChecks = 0
    var valueChecks: [String] = []
    var objectsChecks: [String] = []

    override func validateValue(_ value: inout Value, forKey key: String) throws {
        valueChecks.append(key)
        try super.validateValue(&value, forKey: key)
    }
    override func validateObjects(_ objects: [ManagedObject], forKey key: String) throws {
        objectsChecks.append(key)
        try super.validateObjects(objects, forKey: key)
    }
    override func validateForInsert() throws {
        objectChecks += 1
        try super.validateForInsert()
    }
    override func validateForUpdate() throws {
        objectChecks += 1
        try super.validateForUpdate()
    }
}

@Suite("Validation on demand")
struct ValidationOnDemandTests {
    @Test("validateValue checks numbers' minimum and maximum, and coerces to the type")
    func numberRules() throws {
        let store = try ValidationStore()
        let item = try store.validItem()
        var value: Value = 0
        #expect(
            rules(problems { try item.validateValue(&value, forKey: "count") }) == [
                "count:tooSmall"
            ])
        value = 11
        #expect(
            rules(problems { try item.validateValue(&value, forKey: "count") }) == [
                "count:tooLarge"
            ])
        value = 1.5
        #expect(
            rules(problems { try item.validateValue(&value, forKey: "ratio") }) == [
                "ratio:tooLarge"
            ])
        value = 1
        try item.validateValue(&value, forKey: "ratio")
        #expect(value == .double(1))
        value = 4
        try item.validateValue(&value, forKey: "count")
        #expect(value == .integer(4))
        value = nil
        try item.validateValue(&value, forKey: "count")  // optional: nil passes
        value = "four"
        #expect(throws: ObjectGraphError.self) { try item.validateValue(&value, forKey: "count") }
    }

    @Test("validateValue checks strings' length (UTF-16 units), pattern and requiredness")
    func stringRules() throws {
        let store = try ValidationStore()
        let item = try store.validItem()
        var value: Value = "a"
        #expect(
            rules(problems { try item.validateValue(&value, forKey: "title") }) == [
                "title:tooShort"
            ])
        value = "abcdef"
        #expect(
            rules(problems { try item.validateValue(&value, forKey: "title") }) == ["title:tooLong"]
        )
        value = "ab1"
        #expect(
            rules(problems { try item.validateValue(&value, forKey: "title") }) == [
                "title:patternMismatch"
            ])
        // Three characters but six UTF-16 units: too long, as Core Data counts.
        value = "\u{1F600}\u{1F600}\u{1F600}"
        #expect(
            Set(rules(problems { try item.validateValue(&value, forKey: "title") }))
                == ["title:tooLong", "title:patternMismatch"])
        value = nil
        let required = problems { try item.validateValue(&value, forKey: "title") }
        #expect(rules(required) == ["title:required"])
        #expect(required.first?.objectID == item.objectID)
        #expect(required.first?.entity == "Item")
        value = "fine"
        try item.validateValue(&value, forKey: "title")
    }

    @Test("validateValue checks dates and binary data lengths")
    func dateAndDataRules() throws {
        let store = try ValidationStore()
        let item = try store.validItem()
        var value: Value = .date(Date(timeIntervalSinceReferenceDate: -1))
        #expect(
            rules(problems { try item.validateValue(&value, forKey: "when") }) == ["when:tooEarly"])
        value = .date(Date(timeIntervalSinceReferenceDate: 1_000_001))
        #expect(
            rules(problems { try item.validateValue(&value, forKey: "when") }) == ["when:tooLate"])
        value = .date(Date(timeIntervalSinceReferenceDate: 10))
        try item.validateValue(&value, forKey: "when")
        value = .data(Data([1]))
        #expect(
            rules(problems { try item.validateValue(&value, forKey: "blob") }) == ["blob:tooShort"])
        value = .data(Data([1, 2, 3, 4, 5]))
        #expect(
            rules(problems { try item.validateValue(&value, forKey: "blob") }) == ["blob:tooLong"])
        value = .data(Data([1, 2, 3]))
        try item.validateValue(&value, forKey: "blob")
    }

    @Test("validateValue checks validation predicates, reporting their warnings")
    func predicateRules() throws {
        let store = try ValidationStore()
        let item = try store.validItem()
        var value: Value = -1
        let negative = problems { try item.validateValue(&value, forKey: "age") }
        #expect(rules(negative) == ["age:predicate"])
        #expect(negative.first?.message == "an age cannot be negative")
        #expect(negative.first?.predicate == (try Predicate(format: "SELF >= 0")))
        #expect(negative.first?.value == -1)
        value = 200
        #expect(
            problems { try item.validateValue(&value, forKey: "age") }.map(\.message) == [
                "nobody is that old"
            ])
        value = 30
        try item.validateValue(&value, forKey: "age")
        // At save too, with the same problem.
        try item.set(-1, for: "age")
        #expect(store.saveProblems() == negative)
    }

    @Test("validateValue checks a required to-one; validateObjects checks counts")
    func relationshipRules() throws {
        let store = try ValidationStore()
        let item = try store.validItem()
        var value: Value = nil
        #expect(
            rules(problems { try item.validateValue(&value, forKey: "owner") }) == [
                "owner:required"
            ])
        let owner = try #require(try item.object(for: "owner"))
        value = .objectID(owner.objectID)
        try item.validateValue(&value, forKey: "owner")
        let tags = try (0..<4).map { _ in try store.context.insert("Tag") }
        #expect(
            rules(problems { try item.validateObjects([tags[0]], forKey: "tags") })
                == ["tags:tooFewObjects"])
        #expect(
            rules(problems { try item.validateObjects(tags, forKey: "tags") })
                == ["tags:tooManyObjects"])
        try item.validateObjects(Array(tags[0..<2]), forKey: "tags")
        try item.validateObjects([], forKey: "tags")  // optional: empty passes
        // An object being deleted does not count.
        store.context.delete(tags[1])
        #expect(
            rules(problems { try item.validateObjects(Array(tags[0..<2]), forKey: "tags") })
                == ["tags:tooFewObjects"])
        #expect(throws: ObjectGraphError.self) { try item.validateValue(&value, forKey: "tags") }
        #expect(throws: ObjectGraphError.self) { try item.validateObjects([], forKey: "owner") }
        #expect(throws: ObjectGraphError.self) { try item.validateValue(&value, forKey: "nothing") }
        // A required to-one whose object is being deleted holds none.
        store.context.delete(owner)
        value = .objectID(owner.objectID)
        #expect(
            rules(problems { try item.validateValue(&value, forKey: "owner") }) == [
                "owner:required"
            ])
    }

    @Test("validateForInsert and validateForUpdate throw every problem at once, as save does")
    func wholeObject() throws {
        let store = try ValidationStore()
        let item = try store.context.insert("Item")
        try item.set("x", for: "title")
        try item.set(20, for: "count")
        try item.set(Data([9]), for: "blob")
        try item.setObjects([try store.context.insert("Tag")], for: "tags")
        let direct = problems { try item.validateForInsert() }
        #expect(
            rules(direct) == [
                "title:tooShort", "count:tooLarge", "blob:tooShort", "owner:required",
                "tags:tooFewObjects",
            ])
        #expect(problems { try item.validateForUpdate() } == direct)
        #expect(store.saveProblems() == direct)
        // Fixed, saved, read back as a fault from a new context: checked again on demand.
        try item.set("fine", for: "title")
        try item.set(5, for: "count")
        try item.set(Data([9, 9]), for: "blob")
        try item.setObjects([], for: "tags")
        try item.setObject(try store.context.insert("Owner"), for: "owner")
        try store.context.save()
        try item.validateForUpdate()
        let other = ManagedContext(coordinator: store.context.coordinator)
        let fetched = try #require(try other.fetch(FetchRequest(entityName: "Item")).first)
        try fetched.validateForUpdate()
        try fetched.set(0, for: "count")
        #expect(rules(problems { try fetched.validateForUpdate() }) == ["count:tooSmall"])
    }

    @Test("transient properties are validated too, on demand and at save")
    func transientRules() throws {
        let store = try ValidationStore()
        let item = try store.validItem()
        try item.set("long", for: "draft")
        let direct = problems { try item.validateForInsert() }
        #expect(rules(direct) == ["draft:tooLong"])
        #expect(store.saveProblems() == direct)
        try item.set("ok", for: "draft")
        try store.context.save()
    }

    @Test("validateForDelete checks Deny rules, whether or not the object is deleted yet")
    func denyRules() throws {
        let store = try ValidationStore()
        let item = try store.validItem()
        let owner = try #require(try item.object(for: "owner"))
        try store.context.save()
        let denied = problems { try owner.validateForDelete() }
        #expect(rules(denied) == ["items:deleteDenied"])
        store.context.delete(owner)
        #expect(problems { try owner.validateForDelete() } == denied)
        #expect(store.saveProblems() == denied)
        store.context.delete(item)
        try owner.validateForDelete()
        try store.context.save()
    }

    @Test("an override that calls super keeps the model's rules and adds its own, at save too")
    func overrideWithSuper() throws {
        let store = try ValidationStore(item: CombiningItem.self)
        let item = try store.validItem()
        #expect(item is CombiningItem)
        try item.set(9, for: "count")
        try item.set("x", for: "title")
        let direct = problems { try item.validateForInsert() }
        #expect(rules(direct) == ["title:tooShort", "-:custom"])
        #expect(direct.last?.message == "a count of 9 is more than the title's length")
        #expect(store.saveProblems() == direct)
        try item.set("abc", for: "title")
        #expect(
            store.saveProblems().map(\.message) == ["a count of 9 is more than the title's length"])
        try item.set(3, for: "count")
        try store.context.save()
        try item.set(4, for: "count")
        #expect(rules(problems { try item.validateForUpdate() }) == ["-:custom"])
        #expect(rules(store.saveProblems()) == ["-:custom"])
    }

    @Test("an override that does not call super skips the model's rules, at save too")
    func overrideWithoutSuper() throws {
        let store = try ValidationStore(item: UncheckedItem.self, owner: AlwaysDeletableOwner.self)
        let item = try store.context.insert("Item")
        try item.set(99, for: "count")
        try item.validateForInsert()
        // The rules are still the model's: asked for directly, they hold.
        var count: Value = 99
        #expect(
            rules(problems { try item.validateValue(&count, forKey: "count") }) == [
                "count:tooLarge"
            ])
        try item.setObject(try store.context.insert("Owner"), for: "owner")
        try store.context.save()
        try item.set(nil, for: "title")
        try item.validateForUpdate()
        try store.context.save()
        let owner = try #require(try item.object(for: "owner"))
        try owner.validateForDelete()
        store.context.delete(owner)
        try store.context.save()
        #expect(try store.context.fetch(FetchRequest(entityName: "Owner")).isEmpty)
    }

    @Test("save calls an overridden validateValue: its rule holds, its coercion is not stored")
    func keyOverride() throws {
        let store = try ValidationStore(item: KeyCheckedItem.self)
        let item = try store.validItem()
        var title: Value = "  admin "
        let reserved = problems { try item.validateValue(&title, forKey: "title") }
        #expect(rules(reserved) == ["title:custom"])
        #expect(reserved.first?.message == "is reserved")
        title = " fine "
        try item.validateValue(&title, forKey: "title")
        #expect(title == "fine")
        try item.set("admin", for: "title")
        #expect(store.saveProblems() == reserved)
        // The model's rules for `title` are kept; those for `count` are skipped.
        try item.set("a", for: "title")
        try item.set(99, for: "count")
        #expect(rules(store.saveProblems()) == ["title:tooShort"])
        // The coerced value passes; at save it is not stored (as in Core Data).
        try item.set(" ok", for: "title")
        try store.context.save()
        #expect(item["title"] as String? == " ok")
        #expect(item["count"] as Int? == 99)
    }

    @Test("an overridden validateForDelete combines its problems with the Deny rules at save")
    func deleteOverride() throws {
        let store = try ValidationStore(owner: NamedOwner.self)
        let item = try store.validItem()
        let owner = try #require(try item.object(for: "owner"))
        try owner.set("keep", for: "name")
        try store.context.save()
        store.context.delete(owner)
        let direct = problems { try owner.validateForDelete() }
        #expect(rules(direct) == ["items:deleteDenied", "name:custom"])
        #expect(store.saveProblems() == direct)
        store.context.delete(item)
        #expect(rules(store.saveProblems()) == ["name:custom"])
    }

    @Test("save validates each changed object once, each of its properties once")
    func saveCallCounts() throws {
        let store = try ValidationStore(item: CountingItem.self)
        let owner = try store.context.insert("Owner")
        var items: [CountingItem] = []
        for _ in 0..<50 {
            let item = try #require(try store.context.insert("Item") as? CountingItem)
            try item.set("ok", for: "title")
            try item.setObject(owner, for: "owner")
            items.append(item)
        }
        try store.context.save()
        #expect(items.map(\.objectChecks) == Array(repeating: 1, count: 50))
        let keys = ["title", "count", "ratio", "when", "blob", "age", "draft", "owner"]
        #expect(items.allSatisfy { $0.valueChecks == keys && $0.objectsChecks == ["tags"] })
        // Read back in a new context: only the one object changed is validated.
        let classes = ManagedObjectClasses()
        classes.register(CountingItem.self, forEntity: "Item")
        let other = ManagedContext(coordinator: store.context.coordinator, classes: classes)
        let fetched = try other.fetch(FetchRequest(entityName: "Item")).compactMap {
            $0 as? CountingItem
        }
        #expect(fetched.count == 50)
        try fetched[7].set(3, for: "count")
        try other.save()
        #expect(fetched.map(\.objectChecks).reduce(0, +) == 1)
        #expect(fetched[7].valueChecks == keys)
        #expect(fetched.map(\.valueChecks.count).reduce(0, +) == keys.count)
    }

    @Test("a ValidationError describes every problem")
    func description() throws {
        let store = try ValidationStore()
        let item = try store.context.insert("Item")
        let error = ValidationError(problems: problems { try item.validateForInsert() })
        #expect(error.description.hasPrefix("validation failed with 2 problem(s):"))
        #expect(error.description.contains("Item.title"))
        #expect(error.description.contains("Item.owner"))
    }
}
