import Foundation
import Testing

@testable import ObjectGraph

/// A thrown reason for the user validation hooks.
struct HookRejection: Error, CustomStringConvertible {
    var reason: String
    var description: String { reason }
}

/// An entity class with every user validation hook, each keeping the model's rules (`super`).
final class CheckedObject: ManagedObject {
    override func validateValue(_ value: inout Value, forKey key: String) throws {
        try super.validateValue(&value, forKey: key)
        if key == "name", value == "bad" { throw HookRejection(reason: "bad name") }
        if key == "partner", case .objectID = value, self["name"] as String? == "single" {
            throw HookRejection(reason: "no partner allowed")
        }
    }
    override func validateObjects(_ objects: [ManagedObject], forKey key: String) throws {
        try super.validateObjects(objects, forKey: key)
        if key == "items", objects.count > 2 { throw HookRejection(reason: "too many items") }
    }
    override func validateForInsert() throws {
        try super.validateForInsert()
        if self["size"] as Int? == -1 { throw HookRejection(reason: "insert refused") }
    }
    override func validateForUpdate() throws {
        try super.validateForUpdate()
        if self["size"] as Int? == -2 { throw HookRejection(reason: "update refused") }
    }
    override func validateForDelete() throws {
        try super.validateForDelete()
        if self["name"] as String? == "keep" { throw HookRejection(reason: "delete refused") }
    }
}

@Suite("Validation rules")
struct ValidationRuleTests {
    let context: ManagedContext

    init() throws {
        let classes = ManagedObjectClasses()
        classes.register(CheckedObject.self, forEntity: "Checked")
        context = try GraphTestModels.context(GraphTestModels.validation(), classes: classes)
    }

    /// A `Sample` that passes every rule.
    private func validSample() throws -> ManagedObject {
        let sample = try context.insert("Sample")
        try sample.set("ok", for: "title")
        let holder = try context.insert("Part")
        try sample.setObject(holder, for: "holder")
        try sample.add(try context.insert("Part"), to: "parts")
        return sample
    }

    /// The problems of a save that must fail validation.
    private func problems() -> [ValidationError.Problem] {
        do {
            try context.save()
        } catch SaveError.validation(let error) {
            return error.problems
        } catch {
            Issue.record("unexpected error \(error)")
            return []
        }
        Issue.record("the save was expected to fail validation")
        return []
    }

    /// The uniqueness collisions of a save that must fail with them (the default merge policy).
    private func collisions() -> [ConstraintConflict] {
        do {
            try context.save()
        } catch SaveError.constraintConflicts(let conflicts) {
            return conflicts
        } catch {
            Issue.record("unexpected error \(error)")
            return []
        }
        Issue.record("the save was expected to fail with constraint conflicts")
        return []
    }

    /// The one problem of a failed save, as (property, rule).
    private func soleProblem() -> (String?, ValidationError.Problem.Rule?) {
        let found = problems()
        #expect(found.count == 1, "problems: \(found)")
        return (found.first?.property, found.first?.rule)
    }

    @Test("a valid object saves")
    func valid() throws {
        _ = try validSample()
        try context.save()
        #expect(!context.hasChanges)
    }

    @Test("a required attribute must have a value")
    func requiredAttribute() throws {
        let sample = try validSample()
        try sample.set(nil, for: "title")
        #expect(soleProblem() == ("title", .required))
    }

    @Test("a required to-one must hold an object (a deleted one does not count)")
    func requiredToOne() throws {
        let sample = try validSample()
        try sample.setObject(nil, for: "holder")
        #expect(soleProblem() == ("holder", .required))
        let holder = try context.insert("Part")
        try sample.setObject(holder, for: "holder")
        try context.save()
        context.delete(holder)
        try sample.set("changed", for: "title")
        #expect(soleProblem() == ("holder", .required))
    }

    @Test("a required to-many must not be empty")
    func requiredToMany() throws {
        let sample = try validSample()
        try sample.setObjects([], for: "parts")
        #expect(soleProblem() == ("parts", .tooFewObjects))
    }

    @Test("numbers below the minimum or above the maximum fail; the bounds pass")
    func numericRange() throws {
        let sample = try validSample()
        try sample.set(0, for: "count")
        #expect(soleProblem() == ("count", .tooSmall))
        try sample.set(11, for: "count")
        #expect(soleProblem() == ("count", .tooLarge))
        try sample.set(-0.5, for: "ratio")
        try sample.set(10, for: "count")
        #expect(soleProblem() == ("ratio", .tooSmall))
        try sample.set(1.01, for: "ratio")
        #expect(soleProblem() == ("ratio", .tooLarge))
        try sample.set(1, for: "count")
        try sample.set(1.0, for: "ratio")
        try context.save()
    }

    @Test("strings shorter or longer than allowed fail; lengths count characters")
    func stringLength() throws {
        let sample = try validSample()
        try sample.set("a", for: "code")
        #expect(soleProblem() == ("code", .tooShort))
        try sample.set("abcde", for: "code")
        #expect(soleProblem() == ("code", .tooLong))
        try sample.set("éèêë", for: "code")
        try context.save()
    }

    @Test("dates before the minimum or after the maximum fail")
    func dateRange() throws {
        let sample = try validSample()
        try sample.set(Date(timeIntervalSinceReferenceDate: -1), for: "when")
        #expect(soleProblem() == ("when", .tooEarly))
        try sample.set(
            Date(timeIntervalSinceReferenceDate: GraphTestModels.latest + 1), for: "when")
        #expect(soleProblem() == ("when", .tooLate))
        try sample.set(Date(timeIntervalSinceReferenceDate: GraphTestModels.latest), for: "when")
        try context.save()
    }

    @Test("a regular expression must match the whole string")
    func pattern() throws {
        let sample = try validSample()
        try sample.set("1234", for: "zip")
        #expect(soleProblem() == ("zip", .patternMismatch))
        try sample.set("123456", for: "zip")
        #expect(soleProblem() == ("zip", .patternMismatch))
        try sample.set("x12345", for: "zip")
        #expect(soleProblem() == ("zip", .patternMismatch))
        try sample.set("12345", for: "zip")
        try context.save()
    }

    @Test("to-many min and max counts; an empty optional to-many passes")
    func toManyCounts() throws {
        let sample = try validSample()
        try sample.add(try context.insert("Part"), to: "extras")
        #expect(soleProblem() == ("extras", .tooFewObjects))
        for _ in 0..<3 { try sample.add(try context.insert("Part"), to: "extras") }
        #expect(soleProblem() == ("extras", .tooManyObjects))
        let extras = try sample.objects(for: "extras")
        try sample.remove(extras[0], from: "extras")
        try context.save()
        try sample.setObjects([], for: "extras")
        try context.save()
    }

    @Test("one error lists every problem with object ID, entity, property, rule and value")
    func everyProblem() throws {
        let sample = try context.insert("Sample")
        try sample.set(42, for: "count")
        try sample.set("z", for: "code")
        try sample.set("nope", for: "zip")
        let found = problems()
        let byProperty = Dictionary(
            found.map { ($0.property ?? "", $0) }, uniquingKeysWith: { first, _ in first })
        #expect(
            Set(byProperty.keys) == ["title", "count", "code", "zip", "holder", "parts"])
        #expect(found.allSatisfy { $0.objectID == sample.objectID && $0.entity == "Sample" })
        #expect(byProperty["count"]?.rule == .tooLarge)
        #expect(byProperty["count"]?.value == .integer(42))
        #expect(byProperty["code"]?.value == .string("z"))
        #expect(byProperty["zip"]?.value == .string("nope"))
        #expect(byProperty["title"]?.rule == .required)
        for problem in found {
            #expect(problem.description.contains("Sample.\(problem.property ?? "")"))
        }
    }

    @Test("problems of several objects come in one error")
    func severalObjects() throws {
        let a = try validSample()
        let b = try validSample()
        try a.set(nil, for: "title")
        try b.set(0, for: "count")
        let found = problems()
        #expect(Set(found.map(\.objectID)) == [a.objectID, b.objectID])
    }

    @Test("a failed save changes nothing in the store and the context keeps its changes")
    func failedSaveChangesNothing() throws {
        let sample = try validSample()
        try sample.set(5, for: "count")
        try context.save()
        try sample.set(7, for: "count")
        let fresh = try validSample()
        try sample.set(nil, for: "title")
        _ = problems()
        #expect(sample.isUpdated && fresh.isInserted)
        #expect(sample["count"] as Int? == 7)
        #expect(fresh.objectID.isTemporary)
        let other = GraphTestModels.peer(of: context)
        let copy = try other.existingObject(with: sample.objectID)
        #expect(copy["count"] as Int? == 5)
        #expect(copy["title"] as String? == "ok")
        try sample.set("fixed", for: "title")
        try context.save()
        let again = GraphTestModels.peer(of: context)
        #expect(try again.existingObject(with: sample.objectID)["count"] as Int? == 7)
        #expect(try again.existingObject(with: fresh.objectID)["title"] as String? == "ok")
    }

    @Test("uniqueness within the context: both holders are reported")
    func uniqueInContext() throws {
        let a = try context.insert("Account")
        let b = try context.insert("Account")
        try a.set("x@y", for: "email")
        try b.set("x@y", for: "email")
        let found = collisions()
        #expect(found.count == 2)
        #expect(Set(found.map(\.objectID)) == [a.objectID, b.objectID])
        #expect(found.first?.properties == ["email"])
        #expect(found.first?.values == [.string("x@y")])
        try b.set("z@y", for: "email")
        try context.save()
    }

    @Test("uniqueness against the store, and a deleted holder frees the value")
    func uniqueAgainstStore() throws {
        let a = try context.insert("Account")
        try a.set("x@y", for: "email")
        try context.save()
        let other = GraphTestModels.peer(of: context)
        let b = try other.insert("Account")
        try b.set("x@y", for: "email")
        do {
            try other.save()
            Issue.record("expected a uniqueness problem")
        } catch SaveError.constraintConflicts(let conflicts) {
            #expect(conflicts.map(\.conflictingIDs) == [[a.objectID]])
            #expect("\(SaveError.constraintConflicts(conflicts))".contains(a.objectID.description))
        }
        let aThere = try other.existingObject(with: a.objectID)
        other.delete(aThere)
        try other.save()
    }

    @Test("uniqueness takes an edit of a stored holder into account")
    func uniqueAfterEdit() throws {
        let a = try context.insert("Account")
        try a.set("x@y", for: "email")
        try context.save()
        try a.set("w@y", for: "email")
        let b = try context.insert("Account")
        try b.set("x@y", for: "email")
        try context.save()
    }

    @Test("composite constraints conflict only when every value matches")
    func compositeConstraint() throws {
        let a = try context.insert("Account")
        try a.set("eu", for: "region")
        try a.set(1, for: "number")
        let b = try context.insert("Account")
        try b.set("eu", for: "region")
        try b.set(2, for: "number")
        let c = try context.insert("Account")
        try c.set("us", for: "region")
        try c.set(1, for: "number")
        try context.save()
        let d = try context.insert("Account")
        try d.set("eu", for: "region")
        try d.set(2, for: "number")
        let found = collisions()
        #expect(found.count == 1)
        #expect(found.first?.objectID == d.objectID)
        #expect(found.first?.properties == ["region", "number"])
    }

    @Test("constraints are inherited: a subentity conflicts with its parent's objects")
    func inheritedConstraint() throws {
        let a = try context.insert("Account")
        try a.set("x@y", for: "email")
        try context.save()
        let admin = try context.insert("Admin")
        try admin.set("x@y", for: "email")
        let found = collisions()
        #expect(found.map(\.objectID.entityName) == ["Admin"])
        #expect(found.map(\.entity) == ["Account"])
        try admin.set("admin@y", for: "email")
        let other = try context.insert("Admin")
        try other.set("admin@y", for: "email")
        #expect(collisions().count == 2)
    }

    @Test("two objects swapping unique values in one save do not conflict")
    func uniqueSwap() throws {
        let a = try context.insert("Account")
        let b = try context.insert("Account")
        try a.set("a@x", for: "email")
        try b.set("b@x", for: "email")
        try context.save()
        try a.set("b@x", for: "email")
        try b.set("a@x", for: "email")
        try context.save()
        let other = GraphTestModels.peer(of: context)
        #expect(try other.existingObject(with: a.objectID)["email"] as String? == "b@x")
    }

    @Test("nil values never conflict")
    func nilNoConflict() throws {
        for _ in 0..<3 {
            let account = try context.insert("Account")
            try account.set("eu", for: "region")
        }
        try context.save()
        let more = try context.insert("Account")
        try more.set("eu", for: "region")
        try context.save()
        #expect(!context.hasChanges)
    }

    @Test("validateValue rejects a value, naming the property")
    func validateValueHook() throws {
        let checked = try context.insert("Checked")
        #expect(checked is CheckedObject)
        try checked.set("bad", for: "name")
        let found = problems()
        #expect(found.count == 1)
        #expect(found.first?.rule == .custom)
        #expect(found.first?.property == "name")
        #expect(found.first?.value == "bad")
        #expect(found.first?.message.contains("bad name") == true)
    }

    @Test("validateValue sees to-one relationships as IDs; validateObjects sees to-many ones")
    func relationshipHooks() throws {
        let checked = try context.insert("Checked")
        try checked.set("single", for: "name")
        let part = try context.insert("Part")
        try checked.setObject(part, for: "partner")
        let parts = try (0..<3).map { _ in try context.insert("Part") }
        try checked.setObjects(parts, for: "items")
        let found = problems().sorted { ($0.property ?? "") < ($1.property ?? "") }
        #expect(found.map(\.property) == ["items", "partner"])
        #expect(found.map(\.message) == ["too many items", "no partner allowed"])
        #expect(found.last?.value == .objectID(part.objectID))
        try checked.setObject(nil, for: "partner")
        try checked.remove(parts[0], from: "items")
        try context.save()
        // A saved object read back has its to-one as a fault: still checked, by its ID.
        try checked.set("paired", for: "name")
        try checked.setObject(part, for: "partner")
        try context.save()
        context.reset()
        let again = try #require(try context.fetch(FetchRequest(entityName: "Checked")).first)
        try again.set("single", for: "name")
        #expect(problems().map(\.message) == ["no partner allowed"])
    }

    @Test("validateForInsert, validateForUpdate and validateForDelete are called when fitting")
    func objectHooks() throws {
        let checked = try context.insert("Checked")
        try checked.set(-2, for: "size")
        try context.save()
        try checked.set(-1, for: "size")
        try context.save()
        try checked.set(-2, for: "size")
        let updateProblems = problems()
        #expect(updateProblems.map(\.message) == ["update refused"])
        #expect(updateProblems.first?.property == nil)
        try checked.set(0, for: "size")
        try checked.set("keep", for: "name")
        try context.save()
        context.delete(checked)
        #expect(problems().map(\.message) == ["delete refused"])
        let fresh = try context.insert("Checked")
        try fresh.set(-1, for: "size")
        #expect(Set(problems().map(\.message)) == ["delete refused", "insert refused"])
    }
}
