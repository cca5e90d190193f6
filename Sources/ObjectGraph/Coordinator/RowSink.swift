/// Where a store puts the rows it decodes for a fetch, a batch of faults or a prefetch: one row
/// at a time, while it steps through them.
///
/// The coordinator hands a store a sink (a context's registrar, in practice) and the store
/// calls ``take(id:entityIndex:version:width:group:values:)`` once per row it reads. The sink
/// decides whether it wants the row's values (not when it holds the object loaded already)
/// and, when it does, gives the store a run of slots to write them into with `values`, so a
/// fetched row's values become an object's storage as they are, with no array per row.
///
/// No code but the store's and the sink's may run while a store reads (the coordinator's
/// lock is held and a statement is live): a sink defers anything that may run user code.
protocol RowSink {
    /// What the store writes a row's values into.
    associatedtype Values: RowValueWriter

    /// Takes the row of the object `id`, of the entity at `entityIndex` of the schema, read at
    /// `version`, into `group` (the index of its owner in a prefetch; `nil`: one list).
    ///
    /// When the sink wants the row's values it calls `values` once with a writer of `width`
    /// slots (one per property position of the entity), and the store writes them in
    /// position order; otherwise `values` is not called.
    mutating func take(
        id: ObjectID, entityIndex: Int, version: Int64, width: Int, group: Int?,
        values: (inout Values) throws -> Void
    ) throws
}

/// Writes one row's values, in property position order, into the storage a ``RowSink`` gave
/// out. Each call fills the next position.
protocol RowValueWriter {
    /// An attribute's value (transient properties get ``Value/null``).
    mutating func append(_ value: consuming Value)
    /// A to-one relationship to the object with the permanent key `key` in `space`.
    mutating func appendToOne(space: ObjectIDSpace, key: Int64)
    /// A to-one relationship to `target` (`nil`: no object).
    mutating func appendToOne(_ target: ObjectID?)
    /// A to-many relationship the store does not list here: it is read on first use.
    mutating func appendUnreadToMany()
}

/// Rows decoded into stored values, for a ``StoreRow``.
extension Array: RowValueWriter where Element == StoredValue {
    mutating func append(_ value: consuming Value) { append(.value(value)) }

    mutating func appendToOne(space: ObjectIDSpace, key: Int64) {
        append(.toOne(ObjectID(space: space, key: .permanent(key))))
    }

    mutating func appendToOne(_ target: ObjectID?) { append(.toOne(target)) }

    mutating func appendUnreadToMany() { append(.toMany(nil)) }
}
