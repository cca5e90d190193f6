/// A class `objectgraph codegen` wrote for an entity: it knows its entity's name and how to
/// register every generated class of its model, which ObjectGraph does the first time a
/// context meets the class (a typed fetch, ``ManagedContext/insert(_:entity:)``), so no user
/// code registers generated classes.
///
/// ```swift
/// let ada = try context.insert(Student.self)       // registers the model's classes
/// ada.name = "Ada"
/// let students = try context.fetch(Student.fetchRequest())
/// ```
///
/// Generated classes also have `class var entityName` (the entity's name; a subclass overrides
/// it) and conform to ``KeyPathNaming``.
public protocol GeneratedManagedObject: ManagedObject {
    /// Registers every generated class of the class's model in `classes`, each for its
    /// entity (the topmost generated class declares it; subclasses inherit it).
    static func registerModelClasses(in classes: ManagedObjectClasses)
}

extension GeneratedManagedObject {
    /// A request for the objects of this class's entity (and its subentities).
    ///
    /// ```swift
    /// var request = Student.fetchRequest()
    /// request.fetchLimit = 10
    /// ```
    public static func fetchRequest() -> FetchRequest<Self> {
        FetchRequest<Self>()
    }
}
