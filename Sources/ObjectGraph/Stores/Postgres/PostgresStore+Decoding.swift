import Foundation
import PostgresClient

/// Rows decoded straight into a context's sink (see ``RowDecodingStore``): each row is read
/// in place from libpq's result with a ``PostgresRowDecoder``, and its values are written only
/// when the sink asks for them, with no ``StoreRow`` between.
extension PostgresStore: RowDecodingStore {
    var rowDecoding: (any RowDecodingStore)? { self }

    func fetchDecoded<Sink: RowSink>(_ query: StoreQuery, into sink: inout Sink) throws -> Bool {
        var query = query
        query.result = .rows
        return try withSelectPlan(query) { plan in
            guard case .sql(let statement) = plan else { return false }
            try decode(statement, limit: query.limit, into: &sink)
            return true
        }
    }

    /// Runs `statement` and decodes its rows into `sink`: streamed unless `limit` (`0`: none)
    /// keeps them few.
    private func decode<Sink: RowSink>(
        _ statement: PostgresStatement, limit: Int, into sink: inout Sink
    ) throws {
        try postgres {
            try connection.execute(
                statement.sql, statement.arguments, binary: true,
                streaming: Self.streams(atMost: limit > 0 ? limit : nil)
            ) { cursor in
                var decoder = PostgresRowDecoder(store: self)
                while cursor.next() { try decoder.decode(cursor, into: &sink) }
            }
        }
    }

    func decodedRows<Sink: RowSink>(for ids: [ObjectID], into sink: inout Sink) throws {
        try forEachRow(of: ids) { cursor, decoder in
            try decoder.decode(cursor, into: &sink)
        }
    }

    func relatedDecodedRows<Sink: RowSink>(
        of owners: [ObjectID], entityIndex: Int, position: Int, into sink: inout Sink
    ) throws -> Bool {
        try forEachRelatedRow(of: owners, entityIndex: entityIndex, position: position) {
            cursor, group, decoder in
            try decoder.decode(cursor, into: &sink, group: group)
        }
        return true
    }
}
