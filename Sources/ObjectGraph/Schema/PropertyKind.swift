/// What a property of an entity holds, by position (``EntitySchema/kinds``): one byte each, read
/// on hot paths where matching the property itself would cost more.
enum PropertyKind: UInt8 {
    /// An attribute: one value.
    case attribute
    /// A to-one relationship: at most one object.
    case toOne
    /// A to-many relationship: a list of objects.
    case toMany
}
