import Foundation

/// Where a PostgreSQL database is, read from a `postgresql://` URL; its password is kept but
/// never shown (``description`` and the mirror replace it with `***`).
///
/// Forms:
/// - `postgresql://user@host:5432/db?schema=app` (a TCP host; `postgres://` too);
/// - `postgresql:///db?host=/run/postgresql` (a Unix socket in that folder);
/// - a password in the URL (`user:secret@`, or `password=`), in `PGPASSWORD`, in a passfile
///   (`~/.pgpass`, `PGPASSFILE` or `passfile=`), or given to ``PostgresConnection`` directly.
///
/// `schema` and `pool_size` are ObjectGraph's own parameters (the schema a store keeps its
/// tables in; the most connections a process opens to the URL at once); the other query
/// parameters are libpq's connection keywords (`sslmode`, `connect_timeout`, …).
///
/// ```swift
/// let url = try PostgresURL(string: "postgresql://app:secret@db.local/shop?schema=orders")
/// print(url)  // postgresql://app:***@db.local/shop?schema=orders
/// ```
public struct PostgresURL: Sendable, Hashable, CustomStringConvertible,
    CustomDebugStringConvertible, CustomReflectable
{
    /// The user name (`nil`: libpq's default, the operating-system user or `PGUSER`).
    public var user: String?
    /// A host name or address, or the folder of a Unix socket (an absolute path).
    public var host: String?
    /// The port (`nil`: 5432 or `PGPORT`).
    public var port: Int?
    /// The database name (`nil`: the user's name or `PGDATABASE`).
    public var database: String?
    /// The schema the store's tables live in (`schema=`), `nil` when not given.
    public var schema: String?
    /// The most connections the stores of one process keep open to this URL at once
    /// (`pool_size`), `nil` when not given.
    public var poolSize: Int?
    /// Further libpq connection keywords from the query (`sslmode`, `connect_timeout`, …).
    public var parameters: [String: String]
    /// The password the URL carries; never printed.
    var password: String?

    /// The query parameters passed on to libpq as they are.
    public static let libpqKeywords: Set<String> = [
        "sslmode", "sslrootcert", "sslcert", "sslkey", "sslcrl", "sslpassword",
        "connect_timeout", "application_name", "passfile", "target_session_attrs",
        "options", "keepalives", "keepalives_idle", "gssencmode", "channel_binding",
    ]

    /// Reads `url`.
    /// - Throws: ``PostgresError`` (``PostgresError/Kind/invalidURL``) for another scheme, a
    ///   port that is no number, or a query parameter libpq does not know.
    public init(_ url: URL) throws(PostgresError) {
        try self.init(string: url.absoluteString)
    }

    /// Reads the URL `text`. See ``init(_:)``.
    public init(string text: String) throws(PostgresError) {
        guard let components = URLComponents(string: text),
            let scheme = components.scheme?.lowercased(),
            scheme == "postgresql" || scheme == "postgres"
        else {
            throw PostgresError(
                .invalidURL,
                "a PostgreSQL URL starts with postgresql:// (\(Self.redacted(text)))")
        }
        user = components.percentEncodedUser?.removingPercentEncoding.flatMap(Self.nonEmpty)
        password = components.percentEncodedPassword?.removingPercentEncoding
        host = components.percentEncodedHost?.removingPercentEncoding.flatMap(Self.nonEmpty)
        port = components.port
        let path = components.percentEncodedPath.removingPercentEncoding ?? ""
        database = Self.nonEmpty(String(path.drop { $0 == "/" }))
        parameters = [:]
        for item in components.queryItems ?? [] {
            let value = item.value ?? ""
            switch item.name {
            case "schema": schema = Self.nonEmpty(value)
            case "pool_size":
                guard let number = Int(value), number > 0 else {
                    throw PostgresError(
                        .invalidURL, "pool_size \(value) is no positive number of connections")
                }
                poolSize = number
            case "host": host = Self.nonEmpty(value)
            case "user": user = Self.nonEmpty(value)
            case "dbname": database = Self.nonEmpty(value)
            case "password": password = value
            case "port":
                guard let number = Int(value), (1...65535).contains(number) else {
                    throw PostgresError(.invalidURL, "port \(value) is no port number")
                }
                port = number
            case let name where Self.libpqKeywords.contains(name):
                parameters[name] = value
            default:
                throw PostgresError(
                    .invalidURL,
                    "unknown parameter \(item.name) in \(Self.redacted(text)); known: schema,"
                        + " pool_size, host, port, user, dbname, password, "
                        + Self.libpqKeywords.sorted().joined(separator: ", "))
            }
        }
    }

    /// Creates a URL from its parts.
    public init(
        user: String? = nil, host: String? = nil, port: Int? = nil, database: String? = nil,
        schema: String? = nil, parameters: [String: String] = [:]
    ) {
        self.user = user
        self.host = host
        self.port = port
        self.database = database
        self.schema = schema
        self.parameters = parameters
    }

    /// Whether the URL carries a password.
    public var hasPassword: Bool { password != nil }

    /// Whether ``host`` is the folder of a Unix socket.
    public var usesUnixSocket: Bool { host?.hasPrefix("/") ?? false }

    /// The URL with its password replaced by `***`: safe to print and log.
    public var description: String {
        // The user and password go before the host when there is a TCP host, else in the query
        // (`postgresql://user@/db` is no URL Foundation reads).
        let tcpHost = usesUnixSocket ? nil : host
        var text = "postgresql://"
        var query: [String] = []
        if let tcpHost {
            if let user { text += Self.encoded(user) }
            if password != nil { text += ":***" }
            if user != nil || password != nil { text += "@" }
            text += tcpHost.contains(":") ? "[\(tcpHost)]" : tcpHost
        } else {
            if let host { query.append("host=" + Self.encoded(host)) }
            if let user { query.append("user=" + Self.encoded(user)) }
            if password != nil { query.append("password=***") }
        }
        if let port, tcpHost != nil { text += ":\(port)" }
        if let port, tcpHost == nil { query.append("port=\(port)") }
        text += "/" + (database.map(Self.encoded) ?? "")
        if let schema { query.append("schema=" + Self.encoded(schema)) }
        if let poolSize { query.append("pool_size=\(poolSize)") }
        for (name, value) in parameters.sorted(by: { $0.key < $1.key }) {
            query.append(name + "=" + (name == "sslpassword" ? "***" : Self.encoded(value)))
        }
        return query.isEmpty ? text : text + "?" + query.joined(separator: "&")
    }

    /// The same as ``description``: the password never shows.
    public var debugDescription: String { description }

    /// The parts without the password (for `dump` and debuggers).
    public var customMirror: Mirror {
        Mirror(
            self,
            children: [
                "user": user as Any, "host": host as Any, "port": port as Any,
                "database": database as Any, "schema": schema as Any,
                "poolSize": poolSize as Any,
                "hasPassword": hasPassword, "parameters": parameters,
            ])
    }

    /// The redacted URL (see ``description``) as a `URL`.
    public var redactedURL: URL? { URL(string: description) }

    /// libpq's keywords and values for this URL, the password as given or the URL's.
    func connectionKeywords(password explicit: String?) -> [(String, String)] {
        var result: [(String, String)] = []
        if let host { result.append(("host", host)) }
        if let port { result.append(("port", String(port))) }
        if let user { result.append(("user", user)) }
        if let database { result.append(("dbname", database)) }
        if let password = explicit ?? password { result.append(("password", password)) }
        for (name, value) in parameters.sorted(by: { $0.key < $1.key }) {
            result.append((name, value))
        }
        return result
    }

    private static func nonEmpty(_ text: String) -> String? { text.isEmpty ? nil : text }

    private static func encoded(_ text: String) -> String {
        var allowed = CharacterSet.urlQueryAllowed
        allowed.remove(charactersIn: "&=?#@:/+")
        return text.addingPercentEncoding(withAllowedCharacters: allowed) ?? text
    }

    /// The URL text `text` with its password (after `user:`, or `password=`) replaced by
    /// `***`, for messages about a URL that could not be read.
    ///
    /// ```swift
    /// PostgresURL.redacted("postgresql://app:secret@db/shop")  // postgresql://app:***@db/shop
    /// ```
    public static func redacted(_ text: String) -> String {
        var result = text
        if let schemeEnd = result.range(of: "//"),
            let at = result[schemeEnd.upperBound...].firstIndex(of: "@"),
            let colon = result[schemeEnd.upperBound..<at].firstIndex(of: ":")
        {
            result.replaceSubrange(result.index(after: colon)..<at, with: "***")
        }
        if let range = result.range(of: "password=") {
            let end = result[range.upperBound...].firstIndex(of: "&") ?? result.endIndex
            result.replaceSubrange(range.upperBound..<end, with: "***")
        }
        return result
    }
}
