import CLibPQ
import Foundation

/// The rows of a statement's result read where libpq keeps them, one row at a time, without a
/// copy of each value as a `String` first (see
/// ``PostgresConnection/execute(_:_:binary:streaming:reading:)``).
/// The accessors read the current ``row`` exactly as ``PostgresRow``'s read the text form:
/// from the text form itself, or, for a result in binary form, from the binary value (an
/// integer, double, boolean, UUID, bytes or text column read as its own type) or else from
/// the text form the server would have sent. A cursor is valid only inside the closure it is
/// given to. A streamed cursor (see `streaming`) frees each row when it moves on: move it
/// with ``next()`` only through the one the closure is given (a copy may read the current
/// row).
///
/// ```swift
/// let total = try connection.execute("SELECT id FROM t", binary: true) { cursor in
///     var total: Int64 = 0
///     while cursor.next() { total += try cursor.int64(0) }
///     return total
/// }
/// ```
public struct PostgresCursor: PostgresColumns {
    /// libpq's result holding the current row (all the rows, unless streamed); cleared by the
    /// connection after the closure returns (a streamed cursor's, by ``finish()``).
    private var result: OpaquePointer
    /// The number of rows; of a streamed result, the rows received so far.
    public private(set) var rowCount: Int
    /// The number of columns.
    public let columnCount: Int
    /// The row the accessors read: `-1` before the first ``next()``.
    public private(set) var row = -1
    /// The current row's index in `result` (`row`, unless streamed), and `result`'s rows.
    private var tuple = -1
    private var tupleCount: Int
    /// libpq's connection the further results of a streamed statement come from (`nil`: every
    /// row is in `result`, or the results have ended).
    private var stream: OpaquePointer?
    /// The server's error that ended a streamed result (not cleared: the connection throws it).
    private var failure: OpaquePointer?
    /// Each column's type when the values are in binary form; `nil`: text form.
    private let types: [PostgresBinaryForm.ColumnType]?

    /// A cursor on `result`, whose values are in binary form when `binary`, and, when `stream`
    /// is given, the first result of a statement whose further rows come from that connection.
    init(result: OpaquePointer, binary: Bool, stream: OpaquePointer? = nil) {
        self.result = result
        self.stream = stream
        rowCount = Int(PQntuples(result))
        tupleCount = rowCount
        columnCount = Int(PQnfields(result))
        types =
            binary
            ? (0..<columnCount).map {
                PostgresBinaryForm.ColumnType(oid: PQftype(result, Int32($0)))
            }
            : nil
    }

    /// Moves to the next row; `false` (and no row current) past the last.
    public mutating func next() -> Bool {
        if tuple + 1 < tupleCount {
            tuple += 1
            row += 1
            return true
        }
        if stream != nil, receive() { return true }
        tuple = tupleCount
        row = rowCount
        return false
    }

    /// Receives the next result of a streamed statement: `true` with its first row current;
    /// `false` when the results have ended (the server's error, if one ended them, kept in
    /// ``failure``).
    private mutating func receive() -> Bool {
        guard let connection = stream else { return false }
        while let next = PQgetResult(connection) {
            let status = PQresultStatus(next)
            guard status == PGRES_SINGLE_TUPLE || status == PGRES_TUPLES_OK else {
                if failure == nil { failure = next } else { PQclear(next) }
                continue
            }
            PQclear(result)
            result = next
            tupleCount = Int(PQntuples(next))
            // The closing result of single-row mode has no rows (libpq's end comes next).
            guard tupleCount > 0 else { continue }
            tuple = 0
            row = rowCount
            rowCount += tupleCount
            return true
        }
        stream = nil
        return false
    }

    /// Ends a streamed read: the rows not read yet are received and dropped, so that the
    /// connection takes the next statement, and the result is cleared. Returns the server's
    /// error that ended the rows (for the caller to throw and clear), and the rows the
    /// statement changed.
    mutating func finish() -> (failure: OpaquePointer?, changed: Int) {
        while receive() {}
        let changed = PQcmdTuples(result).map { Int(String(cString: $0)) ?? 0 } ?? 0
        PQclear(result)
        tuple = 0
        tupleCount = 0
        return (failure, changed)
    }

    /// The bytes of column `index` of the current row (without the text form's terminating
    /// NUL), `nil` for NULL, a column out of range or no current row.
    private func value(_ index: Int) -> UnsafeBufferPointer<UInt8>? {
        guard index >= 0, index < columnCount, tuple >= 0, tuple < tupleCount else { return nil }
        let (tuple, field) = (Int32(truncatingIfNeeded: tuple), Int32(truncatingIfNeeded: index))
        // libpq gives a NULL length 0: a longer value needs no NULL test.
        let count = Int(PQgetlength(result, tuple, field))
        guard count > 0 || PQgetisnull(result, tuple, field) == 0,
            let start = PQgetvalue(result, tuple, field)
        else { return nil }
        return UnsafeBufferPointer(
            start: UnsafeRawPointer(start).assumingMemoryBound(to: UInt8.self), count: count)
    }

    /// The type of column `index` in a binary result (`nil`: a text result).
    private func type(_ index: Int) -> PostgresBinaryForm.ColumnType? { types?[index] }

    public func isNull(_ index: Int) -> Bool { value(index) == nil }

    public func text(_ index: Int) -> String? {
        guard let bytes = value(index) else { return nil }
        guard let type = type(index) else { return String(decoding: bytes, as: UTF8.self) }
        return PostgresBinaryForm.text(bytes, type: type)
    }

    public func int64OrNil(_ index: Int) throws(PostgresError) -> Int64? {
        try read(index, as: "an integer", PostgresBinaryForm.integer, PostgresTextForm.int64)
    }

    public func int64(_ index: Int) throws(PostgresError) -> Int64 {
        guard let number = try int64OrNil(index) else {
            throw PostgresError(.decoding, "column \(name(index)) is NULL")
        }
        return number
    }

    public func double(_ index: Int) throws(PostgresError) -> Double? {
        try read(index, as: "a double", PostgresBinaryForm.float8, PostgresTextForm.double)
    }

    public func bool(_ index: Int) throws(PostgresError) -> Bool? {
        try read(
            index, as: "a boolean",
            { bytes, type in type == .bool && bytes.count == 1 ? bytes[0] != 0 : nil },
            PostgresTextForm.bool)
    }

    public func uuid(_ index: Int) throws(PostgresError) -> UUID? {
        try read(index, as: "a UUID", PostgresBinaryForm.uuid, PostgresTextForm.uuid)
    }

    public func decimal(_ index: Int) throws(PostgresError) -> Decimal? {
        try read(index, as: "a decimal", { _, _ in nil }, PostgresTextForm.decimal)
    }

    public func bytes(_ index: Int) throws(PostgresError) -> Data? {
        try read(
            index, as: "bytes (\\x…)",
            { bytes, type in type == .bytea ? Data(buffer: bytes) : nil },
            PostgresTextForm.hexBytes)
    }

    /// Column `index` read with `binary` (from a binary value of its column's type; `nil`
    /// when that is not how to read it), else with `parse` from its text form.
    private func read<T>(
        _ index: Int, as what: String,
        _ binary: (UnsafeBufferPointer<UInt8>, PostgresBinaryForm.ColumnType) -> T?,
        _ parse: (UnsafeBufferPointer<UInt8>) -> T?
    ) throws(PostgresError) -> T? {
        guard let bytes = value(index) else { return nil }
        var text: String
        if let type = type(index) {
            if let value = binary(bytes, type) { return value }
            guard let rendered = PostgresBinaryForm.text(bytes, type: type) else {
                throw PostgresError(
                    .decoding,
                    "column \(name(index)) holds \(bytes.count) bytes of a type (\(type)) not"
                        + " read in binary form, not \(what)")
            }
            text = rendered
            if let parsed = text.withUTF8(parse) { return parsed }
        } else {
            if let parsed = parse(bytes) { return parsed }
            text = String(decoding: bytes, as: UTF8.self)
        }
        throw PostgresTextForm.mismatch(text, column: name(index), what: what)
    }

    /// `name (index)` of column `index`, for messages.
    private func name(_ index: Int) -> String {
        guard index >= 0, index < columnCount,
            let name = PQfname(result, Int32(index)).map({ String(cString: $0) })
        else { return "\(index)" }
        return "\(name) (\(index))"
    }
}
