import CSQLite
import Foundation

/// Holds a Swift function for SQLite. Retained once when registered (through `Unmanaged`),
/// released by SQLite's destroy callback when the function is replaced or the connection
/// closes.
private final class FunctionBox {
    let body: ([DatabaseValue]) throws -> DatabaseValue

    init(_ body: @escaping ([DatabaseValue]) throws -> DatabaseValue) {
        self.body = body
    }
}

/// Holds a Swift collation for SQLite; same ownership as `FunctionBox`.
private final class CollationBox {
    let compare: (String, String) -> ComparisonResult

    init(_ compare: @escaping (String, String) -> ComparisonResult) {
        self.compare = compare
    }
}

extension Database {
    /// Registers a Swift function callable from SQL, for the lifetime of the connection (or
    /// until replaced by a function with the same name and argument count).
    ///
    /// ```swift
    /// try db.createFunction(name: "reverse", argumentCount: 1, deterministic: true) { args in
    ///     guard case .text(let text) = args[0] else { return .null }
    ///     return .text(String(text.reversed()))
    /// }
    /// let reversed = try db.fetchValue(String.self, sql: "SELECT reverse('abc')")  // "cba"
    /// ```
    ///
    /// An error thrown by `body` makes the SQL statement fail with a ``DatabaseError`` whose
    /// message is the error's description (or its ``DatabaseError/message`` and code, for a
    /// `DatabaseError`).
    ///
    /// - Parameters:
    ///   - name: the SQL name of the function.
    ///   - argumentCount: the number of arguments (0...127), or nil for any number.
    ///   - deterministic: whether the same arguments always give the same result, which lets
    ///     SQLite use the function in indexes and optimize calls.
    ///   - body: the function; it receives exactly `argumentCount` values when one is given.
    public func createFunction(
        name: String, argumentCount: Int? = nil, deterministic: Bool = false,
        _ body: @escaping ([DatabaseValue]) throws -> DatabaseValue
    ) throws {
        let handle = try connection.openHandle()
        let flags = SQLITE_UTF8 | (deterministic ? SQLITE_DETERMINISTIC : 0)
        let box = Unmanaged.passRetained(FunctionBox(body)).toOpaque()
        // SQLite calls the destroy callback itself when registration fails.
        let code = sqlite3_create_function_v2(
            handle, name, Int32(clamping: argumentCount ?? -1), flags, box,
            { context, count, values in
                guard let pointer = sqlite3_user_data(context) else {
                    sqlite3_result_error(context, "function has no implementation", -1)
                    return
                }
                let box = Unmanaged<FunctionBox>.fromOpaque(pointer).takeUnretainedValue()
                var arguments: [DatabaseValue] = []
                arguments.reserveCapacity(Int(count))
                for index in 0..<Int(max(0, count)) {
                    arguments.append(DatabaseValue(sqliteValue: values?[index]))
                }
                do {
                    try box.body(arguments).setResult(of: context)
                } catch let error as DatabaseError {
                    sqlite3_result_error(context, error.message, -1)
                    sqlite3_result_error_code(context, error.extendedResultCode.rawValue)
                } catch {
                    sqlite3_result_error(context, String(describing: error), -1)
                }
            },
            nil, nil,
            { pointer in
                guard let pointer else { return }
                Unmanaged<FunctionBox>.fromOpaque(pointer).release()
            })
        guard code == SQLITE_OK else {
            throw connection.error(code: code, sql: nil)
        }
    }

    /// Unregisters a function created with ``createFunction(name:argumentCount:deterministic:_:)``.
    public func removeFunction(name: String, argumentCount: Int? = nil) throws {
        let handle = try connection.openHandle()
        let code = sqlite3_create_function_v2(
            handle, name, Int32(clamping: argumentCount ?? -1), SQLITE_UTF8, nil, nil, nil, nil,
            nil)
        guard code == SQLITE_OK else {
            throw connection.error(code: code, sql: nil)
        }
    }

    /// Registers a collation for `ORDER BY`, comparisons and indexes (`COLLATE name`), for
    /// the lifetime of the connection.
    ///
    /// ```swift
    /// try db.createCollation(name: "localized") { $0.localizedStandardCompare($1) }
    /// let rows = try db.fetchAll(sql: "SELECT name FROM player ORDER BY name COLLATE localized")
    /// ```
    ///
    /// The comparison must be consistent (a total order) or indexes using it break.
    public func createCollation(
        name: String, _ compare: @escaping (String, String) -> ComparisonResult
    ) throws {
        let handle = try connection.openHandle()
        let box = Unmanaged.passRetained(CollationBox(compare))
        let code = sqlite3_create_collation_v2(
            handle, name, SQLITE_UTF8, box.toOpaque(),
            { pointer, length1, bytes1, length2, bytes2 in
                guard let pointer else { return 0 }
                let box = Unmanaged<CollationBox>.fromOpaque(pointer).takeUnretainedValue()
                let result = box.compare(
                    collationString(bytes1, length1), collationString(bytes2, length2))
                return Int32(result.rawValue)
            },
            { pointer in
                guard let pointer else { return }
                Unmanaged<CollationBox>.fromOpaque(pointer).release()
            })
        guard code == SQLITE_OK else {
            // Unlike functions, SQLite does not call the destroy callback when this fails.
            box.release()
            throw connection.error(code: code, sql: nil)
        }
    }
}

/// A collation argument as a String (SQLite passes UTF-8 bytes and their count).
private func collationString(_ bytes: UnsafeRawPointer?, _ count: Int32) -> String {
    guard let bytes, count > 0 else { return "" }
    let buffer = UnsafeRawBufferPointer(start: bytes, count: Int(count))
    return String(decoding: buffer, as: UTF8.self)
}
