import Foundation

/// Which ``ManagedObject`` subclass represents which entity.
///
/// Classes written by `objectgraph codegen` (``GeneratedManagedObject``) register themselves:
/// the first typed fetch or insert of one registers every generated class of its model. Other
/// subclasses are registered by hand:
///
/// Register a class for an entity by name, or register it alone and let the model's
/// `representedClassName` (`Student`, `.Student`, `School.Student`) or the entity's name pick it:
///
/// ```swift
/// ManagedObjectClasses.shared.register(Student.self)                  // by class name
/// ManagedObjectClasses.shared.register(Teacher.self, forEntity: "Teacher")
/// let students: [Student] = try context.fetch(FetchRequest<Student>())
/// ```
public final class ManagedObjectClasses: @unchecked Sendable {
    // `lock` protects `byEntity` and `types`.
    private let lock = NSLock()
    private var byEntity: [String: ManagedObject.Type] = [:]
    private var types: [ManagedObject.Type] = []
    /// The generated classes whose model's classes were registered here.
    private var generatedSeen: Set<ObjectIdentifier> = []

    /// The registry contexts use by default.
    public static let shared = ManagedObjectClasses()

    /// Creates an empty registry.
    public init() {}

    /// Registers `type` for `entity`, or (with `nil`) for whichever entity names its class.
    public func register(_ type: ManagedObject.Type, forEntity entity: String? = nil) {
        lock.withLock {
            if let entity { byEntity[entity] = type }
            if !types.contains(where: { $0 == type }) { types.append(type) }
        }
    }

    /// The class for `entity`: registered for its name, or named by its `representedClassName`
    /// or its name. `nil` means ``ManagedObject`` itself.
    func type(for entity: Entity) -> ManagedObject.Type? {
        lock.withLock {
            if let explicit = byEntity[entity.name] { return explicit }
            let wanted = Self.bareName(entity.className ?? entity.name)
            return types.first { Self.bareName(String(describing: $0)) == wanted }
                ?? types.first { Self.bareName(String(describing: $0)) == entity.name }
        }
    }

    /// The entity `type` is registered for, looked up in `model`.
    func entityName(for type: ManagedObject.Type, in model: EntityModel) -> String? {
        if let generated = type as? any GeneratedManagedObject.Type {
            registerModel(of: generated)
        }
        let explicit = lock.withLock { byEntity.first { $0.value == type }?.key }
        if let explicit { return explicit }
        let name = Self.bareName(String(describing: type))
        return model.entities.first { Self.bareName($0.className ?? "") == name }?.name
            ?? model.entities.first { $0.name == name }?.name
    }

    /// Registers the classes of `type`'s model, the first time `type` is met: generated
    /// classes register themselves this way.
    func registerModel(of type: any GeneratedManagedObject.Type) {
        let isNew = lock.withLock { generatedSeen.insert(ObjectIdentifier(type)).inserted }
        if isNew { type.registerModelClasses(in: self) }
    }

    /// `School.Student`, `.Student` and `Student` all name `Student`.
    static func bareName(_ name: String) -> String {
        name.split(separator: ".").last.map(String.init) ?? name
    }
}
