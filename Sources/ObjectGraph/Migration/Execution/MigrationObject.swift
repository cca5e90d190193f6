/// One object being migrated, source or destination: its entity, its key (the primary key it
/// has, or will have, in its store) and its property values by name. The row-level
/// ``MigrationManager`` reads source objects and makes destination objects of this type; the
/// store code converts its rows to and from them.
///
/// Reading a property the object does not hold throws, so a mapping's expression that names a
/// property the source model lacks fails with the entity and key named.
///
/// ```swift
/// let ada = MigrationObject(entityName: "Person", key: 1, attributes: ["name": "Ada"])
/// let team = MigrationObject(entityName: "Team", key: 7, toMany: ["members": [ada]])
/// ada["team"] = .toOne(team)
/// try Expression(format: "$source.members.@count").evaluate(with: EvaluationValue.null, variables: ["source": .object(team)])  // 1
/// ```
public final class MigrationObject: FunctionCallable {
    /// The value of one property.
    public enum PropertyValue {
        /// An attribute's value (``Value/null`` for nil).
        case attribute(Value)
        /// A to-one relationship's object (`nil`: none).
        case toOne(MigrationObject?)
        /// A to-many relationship's objects, in order (the order an ordered relationship keeps).
        case toMany([MigrationObject])
    }

    /// The entity's name.
    public let entityName: String
    /// The primary key: the store's key for a source object; for a destination object, the
    /// key the manager gives it once every object is created (0 until then).
    public var key: Int64
    /// The property values by property name.
    public var values: [String: PropertyValue]

    /// Creates an object from its attribute and relationship values.
    public init(
        entityName: String, key: Int64, attributes: [String: Value] = [:],
        toOne: [String: MigrationObject?] = [:], toMany: [String: [MigrationObject]] = [:]
    ) {
        self.entityName = entityName
        self.key = key
        var values: [String: PropertyValue] = [:]
        values.reserveCapacity(attributes.count + toOne.count + toMany.count)
        for (name, value) in attributes { values[name] = .attribute(value) }
        for (name, object) in toOne { values[name] = .toOne(object) }
        for (name, objects) in toMany { values[name] = .toMany(objects) }
        self.values = values
    }

    /// The value of the property named `name` (`nil`: the object has no such property).
    public subscript(name: String) -> PropertyValue? {
        get { values[name] }
        set { values[name] = newValue }
    }

    /// The attribute `name`'s value; ``Value/null`` when absent or not an attribute.
    public func attribute(_ name: String) -> Value {
        if case .attribute(let value)? = values[name] { return value }
        return .null
    }

    /// The objects the relationship `name` holds: none, one (to-one) or all (to-many, in order).
    public func related(_ name: String) -> [MigrationObject] {
        switch values[name] {
        case .toOne(let object?)?: return [object]
        case .toMany(let objects)?: return objects
        default: return []
        }
    }

    /// `Entity/p<key>`: how errors name the object.
    public var reference: String { "\(entityName)/p\(key)" }

    /// The value for `key` as expressions see it: a scalar, an object or a collection.
    /// - Throws: ``PredicateEvaluationError/unknownKey(_:in:)`` when the object has no such
    ///   property.
    public func predicateValue(forKey key: String) throws -> EvaluationValue {
        switch values[key] {
        case .attribute(let value)?: return .value(value)
        case .toOne(let object)?: return object.map { .object($0) } ?? .null
        case .toMany(let objects)?: return .collection(objects.map { .object($0) })
        case nil:
            throw PredicateEvaluationError.unknownKey(key, in: reference)
        }
    }

    /// An ID made of the entity and key, so `SELF == $x` and distinct unions compare objects.
    public var predicateObjectID: ObjectID? {
        ObjectID(entityName: entityName, storeIdentifier: "", key: .permanent(key))
    }

    /// `FUNCTION($source, "valueForKey:", "name")`: key-value coding's read.
    public func callFunction(_ selector: String, arguments: [EvaluationValue]) throws
        -> EvaluationValue
    {
        guard selector == "valueForKey:", arguments.count == 1,
            case .value(.string(let name)) = arguments[0]
        else {
            throw PredicateEvaluationError.unsupported(
                "FUNCTION(\(reference), \"\(selector)\") (objects answer valueForKey: only)")
        }
        return try predicateValue(forKey: name)
    }
}
