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
        return try withValues { values in
            guard
                case .sql(let statement) = selectPlan(
                    query, values: values, checksTextOrder: true)
            else { return false }
            let ordered = try postgres { () throws -> Bool in
                try connection.execute(statement.sql, statement.arguments, binary: true) {
                    cursor in
                    var decoder = PostgresRowDecoder(store: self)
                    var first = true
                    while cursor.next() {
                        // Every row carries the same check of the byte-order sort: a false one
                        // (a sorted text may not be NFC) leaves the rows undecoded.
                        if first, let column = statement.textOrderColumn,
                            try cursor.bool(column) == false
                        {
                            return false
                        }
                        first = false
                        try decoder.decode(cursor, into: &sink)
                    }
                    return true
                }
            }
            if ordered { return true }
            // Ranked by the evaluator's order instead (see ``fetch(_:)``).
            guard case .sql(let ranked) = selectPlan(query, values: values) else { return false }
            try postgres {
                try connection.execute(ranked.sql, ranked.arguments, binary: true) { cursor in
                    var decoder = PostgresRowDecoder(store: self)
                    while cursor.next() { try decoder.decode(cursor, into: &sink) }
                }
            }
            return true
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
