import Foundation

@testable import ObjectGraph

/// Models built in code for the object-graph rule tests, one per area.
enum GraphTestModels {
    /// Every relationship shape around `Owner`:
    /// - `pet` ↔ `Pet.owner` (to-one ↔ to-one), `friend` ↔ `friend` (self-inverse to-one),
    ///   `peers` ↔ `peers` (self-inverse to-many),
    /// - `items` ↔ `Item.owner` (to-many ↔ to-one), `tags` ↔ `Tag.owners` (many-to-many),
    /// - `steps` ↔ `Step.owner` (ordered to-many ↔ to-one), `favorite` and `watched` (no inverse),
    /// - `Vehicle.driver` ↔ `Driver.vehicles`, declared on `Vehicle` and used by `Car`.
    static func shapes() -> EntityModel {
        let name = Attribute("name", type: .string)
        let owner = Entity(
            "Owner", attributes: [name],
            relationships: [
                Relationship("pet", destination: "Pet", inverse: "owner"),
                Relationship("friend", destination: "Owner", inverse: "friend"),
                Relationship("peers", destination: "Owner", toMany: true, inverse: "peers"),
                Relationship("items", destination: "Item", toMany: true, inverse: "owner"),
                Relationship("tags", destination: "Tag", toMany: true, inverse: "owners"),
                Relationship(
                    "steps", destination: "Step", toMany: true, inverse: "owner", isOrdered: true),
                Relationship("favorite", destination: "Item"),
                Relationship("watched", destination: "Item", toMany: true),
            ])
        let pet = Entity(
            "Pet", attributes: [name],
            relationships: [Relationship("owner", destination: "Owner", inverse: "pet")])
        let item = Entity(
            "Item", attributes: [name],
            relationships: [Relationship("owner", destination: "Owner", inverse: "items")])
        let tag = Entity(
            "Tag", attributes: [name],
            relationships: [
                Relationship("owners", destination: "Owner", toMany: true, inverse: "tags")
            ])
        let step = Entity(
            "Step", attributes: [name],
            relationships: [Relationship("owner", destination: "Owner", inverse: "steps")])
        let vehicle = Entity(
            "Vehicle", attributes: [name],
            relationships: [Relationship("driver", destination: "Driver", inverse: "vehicles")])
        let car = Entity(
            "Car", parent: "Vehicle", attributes: [Attribute("seats", type: .integer16)])
        let driver = Entity(
            "Driver", attributes: [name],
            relationships: [
                Relationship("vehicles", destination: "Vehicle", toMany: true, inverse: "driver")
            ])
        return EntityModel(entities: [owner, pet, item, tag, step, vehicle, car, driver])
    }

    /// Delete rules around `Folder`: `files` cascade (inverse nullify), `children` cascade with
    /// `parent` nullify (several levels), `label` nullify ↔ `Label.folders`, `locks` deny ↔
    /// `Lock.folder`, `note` no action ↔ `Note.folder`; `Ping.pong` ↔ `Pong.ping` cascade both
    /// ways (a cycle).
    static func deletion() -> EntityModel {
        let name = Attribute("name", type: .string)
        let folder = Entity(
            "Folder", attributes: [name],
            relationships: [
                Relationship(
                    "files", destination: "File", toMany: true, inverse: "folder",
                    deleteRule: .cascade),
                Relationship(
                    "children", destination: "Folder", toMany: true, inverse: "parent",
                    deleteRule: .cascade),
                Relationship("parent", destination: "Folder", inverse: "children"),
                Relationship("label", destination: "Label", inverse: "folders"),
                Relationship(
                    "locks", destination: "Lock", toMany: true, inverse: "folder",
                    deleteRule: .deny),
                Relationship("note", destination: "Note", inverse: "folder", deleteRule: .noAction),
            ])
        let file = Entity(
            "File", attributes: [name],
            relationships: [Relationship("folder", destination: "Folder", inverse: "files")])
        let label = Entity(
            "Label", attributes: [name],
            relationships: [
                Relationship("folders", destination: "Folder", toMany: true, inverse: "label")
            ])
        let lock = Entity(
            "Lock", attributes: [name],
            relationships: [Relationship("folder", destination: "Folder", inverse: "locks")])
        let note = Entity(
            "Note", attributes: [name],
            relationships: [Relationship("folder", destination: "Folder", inverse: "note")])
        let ping = Entity(
            "Ping", attributes: [name],
            relationships: [
                Relationship("pong", destination: "Pong", inverse: "ping", deleteRule: .cascade)
            ])
        let pong = Entity(
            "Pong", attributes: [name],
            relationships: [
                Relationship("ping", destination: "Ping", inverse: "pong", deleteRule: .cascade)
            ])
        return EntityModel(entities: [folder, file, label, lock, note, ping, pong])
    }

    /// The earliest and latest `Sample.when` allowed (seconds since 2001-01-01).
    static let earliest: Double = 0
    static let latest: Double = 1_000_000

    /// Validation rules on `Sample`: `title` required; `count` 1...10; `ratio` 0...1; `code`
    /// 2...4 characters; `zip` five digits; `when` between ``earliest`` and ``latest``;
    /// `holder` a required to-one; `parts` a required to-many; `extras` 2...3 objects.
    /// Uniqueness on `Account`: `email` alone, and `region`+`number` together; `Admin` inherits.
    static func validation() -> EntityModel {
        let count = Attribute("count", type: .integer32).bounded("1", "10")
        let ratio = Attribute("ratio", type: .double).bounded("0", "1")
        let code = Attribute("code", type: .string).bounded("2", "4")
        var zip = Attribute("zip", type: .string)
        zip.regularExpression = "[0-9]{5}"
        var when = Attribute("when", type: .date)
        when.minDateTimeInterval = earliest
        when.maxDateTimeInterval = latest
        var extras = Relationship("extras", destination: "Part", toMany: true)
        extras.minCountString = "2"
        extras.maxCountString = "3"
        let sample = Entity(
            "Sample",
            attributes: [
                Attribute("title", type: .string, isOptional: false), count, ratio, code, zip,
                when,
            ],
            relationships: [
                Relationship("holder", destination: "Part", isOptional: false),
                Relationship("parts", destination: "Part", toMany: true, isOptional: false),
                extras,
            ])
        let part = Entity("Part", attributes: [Attribute("name", type: .string)])
        var account = Entity(
            "Account",
            attributes: [
                Attribute("email", type: .string), Attribute("region", type: .string),
                Attribute("number", type: .integer64),
            ])
        account.uniquenessConstraints = [["email"], ["region", "number"]]
        let admin = Entity(
            "Admin", parent: "Account", attributes: [Attribute("level", type: .integer16)])
        let checked = Entity(
            "Checked",
            attributes: [Attribute("name", type: .string), Attribute("size", type: .integer64)],
            relationships: [
                Relationship("partner", destination: "Part"),
                Relationship("items", destination: "Part", toMany: true),
            ])
        return EntityModel(entities: [sample, part, account, admin, checked])
    }

    /// Two configurations: `Left` holds `Cat`, `Right` holds `Dog` and `Bone`.
    static func twoStores() -> EntityModel {
        let name = Attribute("name", type: .string)
        let cat = Entity("Cat", attributes: [name])
        let dog = Entity(
            "Dog", attributes: [name],
            relationships: [
                Relationship("bones", destination: "Bone", toMany: true, inverse: "dog")
            ])
        let bone = Entity(
            "Bone", attributes: [name],
            relationships: [Relationship("dog", destination: "Dog", inverse: "bones")])
        return EntityModel(
            entities: [cat, dog, bone],
            configurations: [
                Configuration("Left", entities: ["Cat"]),
                Configuration("Right", entities: ["Dog", "Bone"]),
            ])
    }

    /// A context on a new coordinator with one in-memory store of `model`, with an undo
    /// manager.
    static func context(
        _ model: EntityModel, classes: ManagedObjectClasses = ManagedObjectClasses()
    ) throws -> ManagedContext {
        let coordinator = StoreCoordinator(model: model)
        try coordinator.addStore(type: .inMemory)
        return ManagedContext(
            coordinator: coordinator, classes: classes, undoManager: UndoManager())
    }

    /// A second context on `context`'s coordinator (sees only what was saved).
    static func peer(of context: ManagedContext) -> ManagedContext {
        ManagedContext(coordinator: context.coordinator, classes: ManagedObjectClasses())
    }

    /// Inserts an object of `entity` named `name`.
    @discardableResult
    static func make(_ context: ManagedContext, _ entity: String, _ name: String) throws
        -> ManagedObject
    {
        let object = try context.insert(entity)
        try object.set(name, for: "name")
        return object
    }
}

/// The names of `objects`, in order.
func names(_ objects: [ManagedObject]) -> [String] {
    objects.map { $0["name"] as String? ?? "?" }
}

/// The names of the objects of the to-many relationship `key` of `object`, sorted.
func sortedNames(_ object: ManagedObject, _ key: String) throws -> [String] {
    names(try object.objects(for: key)).sorted()
}

/// The name of the object of the to-one relationship `key` of `object`.
func toOneName(_ object: ManagedObject, _ key: String) throws -> String? {
    try object.object(for: key)?["name"] as String?
}
