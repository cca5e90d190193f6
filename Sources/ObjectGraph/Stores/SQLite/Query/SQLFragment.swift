/// What kind of value an SQL expression yields, which decides how it compares: the evaluator
/// compares numbers (integers, doubles, decimals, Booleans) by value, strings with `[c]`/`[d]`
/// folding, dates chronologically, bytes and UUIDs by equality only, and objects by ID.
enum SQLValueKind: Hashable, Sendable {
    /// The constant nil.
    case null
    /// Integer, Boolean, Double, Float or Decimal (decimals are REAL in the file).
    case number
    /// Text.
    case string
    /// A date, REAL seconds since 2001-01-01.
    case date
    /// Binary or transformable bytes.
    case data
    /// A UUID, a 16-byte blob.
    case uuid
    /// A URI, its absolute string.
    case uri
    /// A managed object: `sql` is its `Z_PK`, ``SQLFragment/entity`` its `Z_ENT`.
    case object

    init?(attributeType: AttributeType) {
        switch attributeType {
        case .integer16, .integer32, .integer64, .boolean, .decimal, .double, .float:
            self = .number
        case .string: self = .string
        case .date: self = .date
        case .binary, .transformable: self = .data
        case .uuid: self = .uuid
        case .uri: self = .uri
        case .undefined, .objectID, .composite, .unknown: return nil
        }
    }
}

/// A translated scalar expression: SQL, its arguments and its kind. An object reference also
/// carries the SQL of its entity number.
struct SQLFragment: Sendable {
    var piece: SQLPiece
    var kind: SQLValueKind
    /// For ``SQLValueKind/object``: the `Z_ENT` of the referenced row.
    var entity: SQLPiece?
    /// Whether the expression may be NULL.
    var nullable: Bool
    /// The attribute type, when the expression is an attribute's column.
    var attributeType: AttributeType?
    /// Whether a number is always an integer (integer and Boolean columns and constants,
    /// counts, and integer arithmetic), so arithmetic on it cannot give NaN.
    var isInteger = false
    /// Whether a number is always a REAL or NULL in SQLite (Double and Float columns, double
    /// and decimal constants, and arithmetic on those): SQLite's own `+`, `-`, `*` and `/` then
    /// compute in floating point as `Arithmetic.apply` does (see ``SQLNativeArithmetic``).
    var isReal = false
    /// Whether the expression is a column of a table alias.
    var isColumn = false
    /// For an attribute's column: its table and column name (where its distinct values are).
    var source: SQLColumnSource? = nil
    /// Whether a number is a double (a double or float column, or an aggregate of one, or a
    /// mean): PostgreSQL compares it with integers only when exact.
    var isDouble = false
    /// For a number constant typed for PostgreSQL: its value.
    var constant: Value? = nil
    /// Whether the expression is a column or a bound argument: plain comparisons of those can
    /// be served from an index.
    var isSimple: Bool { isColumn || piece.sql == "?" }

    /// The text of a bound string constant.
    var constantText: String? {
        guard piece.sql == "?", case .text(let text)? = piece.arguments.first else { return nil }
        return text
    }

    /// Whether the value may be NaN in the evaluator, which SQLite turns into NULL: nil tests
    /// on it cannot be translated.
    var mayBeNaN = false

    init(_ piece: SQLPiece, kind: SQLValueKind, entity: SQLPiece? = nil, nullable: Bool = true) {
        self.piece = piece
        self.kind = kind
        self.entity = entity
        self.nullable = nullable
    }

    static let null = SQLFragment(SQLPiece("NULL"), kind: .null)

    /// `x IS NULL` (for an object: its key is NULL); `1` for the nil constant. Throws for a
    /// value that may be NaN, which SQLite cannot tell from NULL.
    func nullTest(fragment: String) throws(SQLTranslationError) -> SQLPiece {
        guard !mayBeNaN else {
            throw .unsupported(fragment, reason: "a nil test on a value that may be NaN")
        }
        return isNullTest
    }

    /// `x IS NULL` (for an object: its key is NULL); `1` for the nil constant.
    var isNullTest: SQLPiece {
        if kind == .null { return SQLPiece("1") }
        if !nullable { return SQLPiece("0") }
        return "(" + piece + " IS NULL)"
    }
}

/// The table and column an attribute's value is read from.
struct SQLColumnSource: Hashable, Sendable {
    var table: String
    var column: String
}

/// An object row reachable in a query: its table alias, its (declared) entity and the
/// SELECT level whose FROM clause holds the alias.
struct SQLObjectScope {
    var alias: String
    var entity: String
    var context: SQLSelectContext
}

/// The FROM clause of one SELECT level: the main table, then joins added as key paths need
/// them (to-one joins shared by every use of the same path).
final class SQLSelectContext {
    /// The most tables SQLite joins in one SELECT.
    static let maximumTables = 64

    private(set) var from: SQLPiece
    /// How many tables ``from`` names.
    private(set) var tableCount: Int
    private var joins: [String: String] = [:]

    init(from: SQLPiece, tables: Int = 1) {
        self.from = from
        self.tableCount = tables
    }

    /// Appends a join clause of `tables` more tables (` LEFT JOIN "ZTEAM" AS t2 ON …`), in
    /// place; past SQLite's ``maximumTables`` the key path `fragment` is untranslatable (and
    /// is evaluated in memory) before more SQL is built.
    func append(_ clause: SQLPiece, tables: Int, fragment: @autoclosure () -> String)
        throws(SQLTranslationError)
    {
        guard tableCount + tables <= Self.maximumTables else {
            throw .unsupported(
                fragment(),
                reason: "the key paths join more than \(Self.maximumTables) tables, SQLite's limit")
        }
        tableCount += tables
        from.sql += clause.sql
        from.arguments += clause.arguments
    }

    /// The alias already joined for `key` (alias + relationship), if any.
    func joinedAlias(_ key: String) -> String? { joins[key] }

    func remember(_ key: String, alias: String) { joins[key] = alias }
}

/// A to-many path as the FROM and WHERE of a correlated subquery whose rows are the elements.
struct SQLCollectionSource {
    /// The subquery's FROM clause.
    var context: SQLSelectContext
    /// The correlation with the outer row and restrictions on element entities.
    var conditions: [SQLPiece]
    /// The last object reached (the element itself, when the path ends on a to-many).
    var scope: SQLObjectScope
    /// The element value: an attribute of ``scope`` or the object.
    var element: SQLFragment
    /// Whether the path ended on a to-many relationship (the elements are its objects).
    var endsOnObjects: Bool

    /// `EXISTS (SELECT 1 FROM … WHERE conditions AND test)`.
    func exists(_ test: SQLPiece) -> SQLPiece {
        "EXISTS (SELECT 1 FROM " + context.from + " WHERE " + SQLPiece.all(conditions + [test])
            + ")"
    }

    /// `(SELECT value FROM … WHERE conditions [AND test])`.
    func scalar(_ value: SQLPiece, where test: SQLPiece? = nil) -> SQLPiece {
        "(SELECT " + value + " FROM " + context.from + " WHERE "
            + SQLPiece.all(conditions + (test.map { [$0] } ?? [])) + ")"
    }
}

/// A translated operand of a comparison.
enum SQLOperand {
    /// One value.
    case scalar(SQLFragment)
    /// A constant collection `{a, b, c}`.
    case list([SQLFragment])
    /// The elements of a to-many key path.
    case collection(SQLCollectionSource)
}
