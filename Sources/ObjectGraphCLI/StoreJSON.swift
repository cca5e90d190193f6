import Foundation
import ObjectGraph

/// The JSON form of objects and values, with the conventions of `objectgraph predicate
/// --jsonl`: nil is `null`, dates `{"$date": <seconds since 1970>}`, data `{"$data": base64}`,
/// UUIDs `{"$uuid": "…"}`, URIs and object IDs as strings; a Transformable attribute holding
/// an `NSKeyedArchiver` archive as `{"$archived": …}` (``ArchivedValueJSON``).
enum StoreJSON {
    static func json(_ value: Value) -> Any {
        switch value {
        case .null: return NSNull()
        case .integer(let v): return v
        case .double(let v): return v.isFinite ? v : NSNull()
        case .decimal(let v): return NSDecimalNumber(decimal: v)
        case .string(let v): return v
        case .bool(let v): return v
        case .date(let v): return ["$date": v.timeIntervalSince1970]
        case .data(let v): return ["$data": v.base64EncodedString()]
        case .uuid(let v): return ["$uuid": v.uuidString]
        case .uri(let v): return v.absoluteString
        case .objectID(let v): return v.description
        }
    }

    /// One object as `{"entity", "id", "attributes", "relationships"}`.
    static func object(_ object: ManagedObject, model: EntityModel) throws -> [String: Any] {
        var attributes: [String: Any] = [:]
        var relationships: [String: Any] = [:]
        for attribute in model.allAttributes(of: object.entity) where !attribute.isTransient {
            let value = try object.value(for: attribute.name)
            if attribute.type == .transformable, case .data = value,
                let archived = ArchivedValueJSON.attribute(attribute.name, of: object)
            {
                attributes[attribute.name] = archived
            } else {
                attributes[attribute.name] = json(value)
            }
        }
        for relationship in model.allRelationships(of: object.entity)
        where !relationship.isTransient {
            let targets =
                relationship.isToMany
                ? try object.objects(for: relationship.name)
                : (try object.object(for: relationship.name)).map { [$0] } ?? []
            relationships[relationship.name] = targets.map(\.objectID.description)
        }
        return [
            "entity": object.entity.name, "id": object.objectID.description,
            "attributes": attributes, "relationships": relationships,
        ]
    }

    /// `object` as one line of JSON with sorted keys.
    static func line(_ object: Any) throws -> String {
        let data = try JSONSerialization.data(
            withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])
        return String(decoding: data, as: UTF8.self)
    }
}

/// Opening a model and a store for the store commands.
enum StoreOpening {
    /// The model at `modelPath` (or, without one, the model the store carries in its
    /// `Z_MODELCACHE`) and a context on the store at `storePath` (a file, or a PostgreSQL
    /// URL), opened read-only.
    static func open(model modelPath: String?, store storePath: String) throws
        -> (EntityModel, ManagedContext)
    {
        let model = try self.model(at: modelPath, forStore: storePath)
        guard let type = try StoreFileKind.checkedSource(storePath) else {
            throw StoreError.cannotOpen(
                path: storePath, reason: "not a store file ObjectGraph knows")
        }
        let url = try StoreFileKind.url(for: storePath)
        let coordinator = StoreCoordinator(model: model)
        try coordinator.addStore(type: type, at: url, options: StoreOptions(isReadOnly: true))
        return (model, ManagedContext(coordinator: coordinator))
    }

    /// The model file at `modelPath` when given, else the store's cached model. Of a versioned
    /// bundle, the version the store was written with (by its version hashes, as a migration
    /// finds it), else the current one.
    /// - Throws: ``CachedModelMissing`` when there is no model file and the store has no cache
    ///   (a PostgreSQL store keeps none).
    static func model(at modelPath: String?, forStore storePath: String) throws -> EntityModel {
        if let modelPath {
            let url = URL(fileURLWithPath: modelPath)
            guard url.pathExtension == "xcdatamodeld" else {
                return try EntityModel(contentsOf: url)
            }
            let coordinator = try StoreCoordinator(bundle: ModelBundle(contentsOf: url))
            if let type = try StoreFileKind.checkedSource(storePath),
                let steps = try? coordinator.migrationPlan(
                    forStoreAt: StoreFileKind.url(for: storePath), type: type),
                let first = steps.first
            {
                return first.source.model
            }
            return coordinator.model
        }
        guard let type = try StoreFileKind.checkedSource(storePath) else {
            throw StoreError.cannotOpen(
                path: storePath, reason: "not a store file ObjectGraph knows")
        }
        guard type != .postgres,
            let cached = try StoreCoordinator.cachedModel(
                ofStoreAt: URL(fileURLWithPath: storePath))
        else { throw CachedModelMissing(store: StoreFileKind.displayName(storePath)) }
        return cached
    }
}

/// A store opened without `--model` that keeps no model inside it.
struct CachedModelMissing: Error, CustomStringConvertible {
    /// The store's path (a PostgreSQL URL without its password).
    let store: String

    var description: String {
        "\(store) keeps no model (no Z_MODELCACHE); give its model with --model"
    }
}
