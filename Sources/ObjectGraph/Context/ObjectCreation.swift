/// The information a context gives a new ``ManagedObject``. Opaque: only contexts make it.
public struct ObjectCreation {
    let schema: EntitySchema
    let id: ObjectID
    let link: ContextLink
    let isFault: Bool
    /// The values, when known at creation (objects made from stored rows).
    var slots: [Slot]?
    /// The values, already in place in a block (objects made from decoded rows).
    var storage: SlotRange?

    init(
        schema: EntitySchema, id: ObjectID, context: ManagedContext, isFault: Bool,
        slots: [Slot]? = nil, storage: SlotRange? = nil
    ) {
        self.schema = schema
        self.id = id
        link = context.link
        self.isFault = isFault
        self.slots = slots
        self.storage = storage
    }
}
