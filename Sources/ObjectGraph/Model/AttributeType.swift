/// The type of an attribute, as Xcode writes it in `attributeType`.
///
/// The raw spelling is kept for types this version does not know, so such models still load
/// (validation reports them).
public enum AttributeType: Sendable, Hashable {
    /// No type: Xcode writes no `attributeType` at all. Valid only for transient attributes.
    case undefined
    /// `Integer 16`.
    case integer16
    /// `Integer 32`.
    case integer32
    /// `Integer 64`.
    case integer64
    /// `Decimal`.
    case decimal
    /// `Double`.
    case double
    /// `Float`.
    case float
    /// `String`.
    case string
    /// `Boolean`.
    case boolean
    /// `Date`.
    case date
    /// `Binary` (binary data).
    case binary
    /// `UUID`.
    case uuid
    /// `URI`.
    case uri
    /// `Transformable`.
    case transformable
    /// `ObjectID` (only in expression results).
    case objectID
    /// `Composite` (Xcode 15 composite attributes).
    case composite
    /// A spelling Xcode never writes, kept as read.
    case unknown(String)

    /// Reads Xcode's spelling; `nil` (attribute missing) means ``undefined``.
    public init(xmlName: String?) {
        guard let xmlName else {
            self = .undefined
            return
        }
        self = Self.byXMLName[xmlName] ?? .unknown(xmlName)
    }

    private static let byXMLName: [String: AttributeType] = [
        "Undefined": .undefined, "Integer 16": .integer16, "Integer 32": .integer32,
        "Integer 64": .integer64, "Decimal": .decimal, "Double": .double, "Float": .float,
        "String": .string, "Boolean": .boolean, "Date": .date, "Binary": .binary, "UUID": .uuid,
        "URI": .uri, "Transformable": .transformable, "ObjectID": .objectID,
        "Composite": .composite,
    ]

    /// Xcode's spelling, or `nil` for ``undefined`` (written by omitting the attribute).
    public var xmlName: String? {
        switch self {
        case .undefined: return nil
        case .integer16: return "Integer 16"
        case .integer32: return "Integer 32"
        case .integer64: return "Integer 64"
        case .decimal: return "Decimal"
        case .double: return "Double"
        case .float: return "Float"
        case .string: return "String"
        case .boolean: return "Boolean"
        case .date: return "Date"
        case .binary: return "Binary"
        case .uuid: return "UUID"
        case .uri: return "URI"
        case .transformable: return "Transformable"
        case .objectID: return "ObjectID"
        case .composite: return "Composite"
        case .unknown(let name): return name
        }
    }

    /// Core Data's `NSAttributeType` number, which feeds the entity version hash.
    public var coreDataCode: Int32 {
        switch self {
        case .undefined, .unknown: return 0
        case .integer16: return 100
        case .integer32: return 200
        case .integer64: return 300
        case .decimal: return 400
        case .double: return 500
        case .float: return 600
        case .string: return 700
        case .boolean: return 800
        case .date: return 900
        case .binary: return 1000
        case .uuid: return 1100
        case .uri: return 1200
        case .transformable: return 1800
        case .objectID: return 2000
        case .composite: return 2100
        }
    }

    /// Whether values of this type are integers (any width).
    public var isInteger: Bool {
        switch self {
        case .integer16, .integer32, .integer64: return true
        default: return false
        }
    }

    /// Whether values of this type are numbers (integers, decimals, floating point).
    public var isNumeric: Bool {
        switch self {
        case .integer16, .integer32, .integer64, .decimal, .double, .float: return true
        default: return false
        }
    }

    /// The range an integer attribute can hold, or `nil` for other types.
    public var integerRange: ClosedRange<Int64>? {
        switch self {
        case .integer16: return Int64(Int16.min)...Int64(Int16.max)
        case .integer32: return Int64(Int32.min)...Int64(Int32.max)
        case .integer64: return Int64.min...Int64.max
        default: return nil
        }
    }
}

extension AttributeType: CustomStringConvertible {
    /// Xcode's spelling (`Integer 16`), or `Undefined`.
    public var description: String { xmlName ?? "Undefined" }
}
