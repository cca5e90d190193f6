import Foundation

/// History transactions answer predicates (``HistoryRequest/transactionPredicate``).
extension HistoryTransaction: KeyValueReadable {
    /// `author`, `contextName`, `bundleID`, `processID` (strings or nil), `timestamp` (a date),
    /// `transactionNumber` (an integer), `storeIdentifier` (a string), `changes` (a
    /// collection of changes).
    public func predicateValue(forKey key: String) throws -> EvaluationValue {
        switch key {
        case "author": return Self.text(author)
        case "contextName": return Self.text(contextName)
        case "bundleID": return Self.text(bundleID)
        case "processID": return Self.text(processID)
        case "timestamp": return .value(.date(timestamp))
        case "transactionNumber", "token": return .value(.integer(transactionNumber))
        case "storeIdentifier": return .value(.string(storeIdentifier))
        case "changes": return .collection(changes.map { .object($0) })
        default: throw PredicateEvaluationError.unknownKey(key, in: "HistoryTransaction")
        }
    }

    /// A string or null.
    static func text(_ value: String?) -> EvaluationValue {
        value.map { .value(.string($0)) } ?? .null
    }
}

/// History changes answer predicates (``HistoryRequest/changePredicate``).
extension HistoryChange: KeyValueReadable {
    /// `changeID` (an integer), `changeType` (0 insert, 1 update, 2 delete),
    /// `changedEntity` (the entity's name), `changedObjectID` (the object ID),
    /// `updatedProperties` (a collection of names), `tombstone` (a dictionary of values),
    /// `transactionNumber`.
    public func predicateValue(forKey key: String) throws -> EvaluationValue {
        switch key {
        case "changeID": return .value(.integer(changeID))
        case "changeType": return .value(.integer(Int64(changeType.rawValue)))
        case "changedEntity": return .value(.string(changedObjectID.entityName))
        case "changedObjectID": return .value(.objectID(changedObjectID))
        case "updatedProperties":
            return .collection((updatedProperties ?? []).sorted().map { .value(.string($0)) })
        case "tombstone":
            guard let tombstone else { return .null }
            return .dictionary(tombstone.mapValues { .value($0) })
        case "transactionNumber": return .value(.integer(transactionToken.transactionNumber))
        default: throw PredicateEvaluationError.unknownKey(key, in: "HistoryChange")
        }
    }

    /// The changed object's ID: `SELF == %@` compares it.
    public var predicateObjectID: ObjectID? { changedObjectID }
}
