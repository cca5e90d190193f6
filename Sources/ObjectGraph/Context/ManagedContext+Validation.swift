import Foundation

/// Validation at save: every object's own validation method — ``ManagedObject/validateForInsert()``,
/// ``ManagedObject/validateForUpdate()`` or ``ManagedObject/validateForDelete()``, overridden or
/// not (the defaults check the model's rules, see ManagedObject+Validation.swift) — and then
/// the references to discarded inserts, which no override can skip. Uniqueness
/// constraints are checked after it, by the merge policy (ManagedContext+ConstraintMerge.swift).
extension ManagedContext {
    /// Every problem of `objects` (the objects a save writes), sorted by object.
    func validationProblems(_ objects: [ManagedObject]) -> [ValidationError.Problem] {
        var problems: [ValidationError.Problem] = []
        for object in objects {
            // Inserted and then deleted: nothing is saved, nothing to check.
            if object.deletedFlag && object.insertedFlag { continue }
            do {
                if object.deletedFlag {
                    try object.validateForDelete()
                } else if object.insertedFlag {
                    try object.validateForInsert()
                } else {
                    try object.validateForUpdate()
                }
            } catch {
                problems += object.validationProblems(of: error, key: nil)
            }
            // Checked here, not by the overridable methods: nothing may skip it.
            if !object.deletedFlag { problems += ValidationRules.danglingProblems(object) }
        }
        // Typed writes an object could not take fail the save, changed object or not.
        rejectedWrites.removeDeleted()
        if !rejectedWrites.isEmpty {
            var seen = Set(problems)
            for problem in rejectedWrites.allProblems() where seen.insert(problem).inserted {
                problems.append(problem)
            }
        }
        if problems.count < 2 { return problems }
        return problems.sorted { ObjectID.precedes($0.objectID, $1.objectID) }
    }
}
