/// A store that decodes rows straight into a ``RowSink`` for the hot paths of a context
/// (fetching, batch faulting, prefetching). Each method reads what its ``PersistentStore``
/// counterpart reads, row for row.
///
/// For each row the store calls the sink's ``RowSink/take(id:entityIndex:version:width:group:values:)``
/// as soon as it has read the row's key, entity and version, and writes the values only when
/// the sink asks for them, with no other code in between.
protocol RowDecodingStore: PersistentStore {
    /// ``PersistentStore/fetch(_:)`` for a query whose result is ``StoreQuery/Result/rows``;
    /// `false` (and no row taken) when the store cannot answer it.
    func fetchDecoded<Sink: RowSink>(_ query: StoreQuery, into sink: inout Sink) throws -> Bool
    /// ``PersistentStore/rows(for:)``, with every row's values.
    func decodedRows<Sink: RowSink>(for ids: [ObjectID], into sink: inout Sink) throws
    /// ``PersistentStore/relatedRows(of:entityIndex:position:)``: each row is taken in the
    /// group of its owner (the owner's index in `owners`, its first one if listed twice);
    /// `false` (and no row taken) when the store keeps relationship lists in its rows.
    func relatedDecodedRows<Sink: RowSink>(
        of owners: [ObjectID], entityIndex: Int, position: Int, into sink: inout Sink
    ) throws -> Bool
}

/// A store that answers queries in SQL and can show the statement it runs.
protocol SQLQueryingStore: PersistentStore {
    /// The SQL (with its bound arguments after `--`) the store runs for `query`, or `nil` when
    /// the query is answered in memory (a predicate part with no SQL translation).
    func sqlText(for query: StoreQuery) -> String?
    /// Why `query` is answered in memory (a predicate part without a SQL translation, or a
    /// statement SQLite refuses as too deep or too large), or `nil` when it runs in SQL.
    func inMemoryReason(for query: StoreQuery) -> String?
}
