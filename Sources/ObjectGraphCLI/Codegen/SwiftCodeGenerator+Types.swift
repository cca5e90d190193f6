import ObjectGraph

/// The Swift type of each attribute in generated code.
extension SwiftCodeGenerator {
    /// How a generated attribute property reads and writes.
    enum AttributeSwiftType: Equatable {
        /// A ``ObjectGraph/ValueConvertible`` type: optional when `absent` is `nil`, else read
        /// as `absent` when the attribute holds no value.
        case plain(String, absent: String?)
        /// A `Codable` value of a Transformable attribute (always optional).
        case codable(String)
    }

    /// Swift and Foundation types known to be `Codable` (and `Sendable`) on Linux.
    static let knownCodable: Set<String> = [
        "String", "Int", "Int8", "Int16", "Int32", "Int64", "UInt", "UInt8", "UInt16", "UInt32",
        "UInt64", "Double", "Float", "Bool", "Date", "Data", "URL", "UUID", "Decimal",
        "Character", "Swift.String", "Swift.Int", "Swift.Double", "Swift.Bool",
        "Foundation.Date", "Foundation.Data", "Foundation.URL", "Foundation.UUID",
    ]

    /// The attribute's Swift type. Numbers and Booleans that the model asks to be scalars are
    /// never optional (nil reads as zero, as Xcode's scalars); other types are optional when
    /// the model says so, and a required one with no value yet reads as its type's zero value
    /// (the next save reports it missing). Transformable attributes are their declared class
    /// when it is `Codable`.
    mutating func swiftType(_ attribute: Attribute, entity: Entity) -> AttributeSwiftType {
        let scalar = attribute.usesScalarValueType == true
        func number(_ name: String, zero: String) -> AttributeSwiftType {
            .plain(ref(name, in: "Swift"), absent: scalar || !attribute.isOptional ? zero : nil)
        }
        func object(_ name: String, module: String, zero: String) -> AttributeSwiftType {
            .plain(ref(name, in: module), absent: attribute.isOptional ? nil : zero)
        }
        switch attribute.type {
        case .integer16: return number("Int16", zero: "0")
        case .integer32: return number("Int32", zero: "0")
        case .integer64: return number("Int64", zero: "0")
        case .double: return number("Double", zero: "0")
        case .float: return number("Float", zero: "0")
        case .boolean: return number("Bool", zero: "false")
        case .decimal: return object("Decimal", module: "Foundation", zero: "0")
        case .string: return object("String", module: "Swift", zero: "\"\"")
        case .date:
            return object("Date", module: "Foundation", zero: "\(ref("AbsentValues")).date")
        case .binary:
            return object("Data", module: "Foundation", zero: "\(ref("Data", in: "Foundation"))()")
        case .uuid:
            return object("UUID", module: "Foundation", zero: "\(ref("AbsentValues")).uuid")
        case .uri:
            return object("URL", module: "Foundation", zero: "\(ref("AbsentValues")).url")
        case .objectID: return .plain(ref("ObjectID"), absent: nil)
        case .transformable: return transformableType(attribute, entity: entity)
        case .undefined, .composite, .unknown:
            return .plain(ref("Value"), absent: "\(ref("Value")).null")
        }
    }

    /// A Transformable attribute's type: its declared class (`customClassName`, without a
    /// leading `.`) when it is a known `Codable` type or a collection of them, or looks like
    /// the user's own type (assumed `Codable & Sendable`, warned); else (no class, an
    /// Objective-C or other framework's class) the raw ``ObjectGraph/Value``, warned.
    private mutating func transformableType(_ attribute: Attribute, entity: Entity)
        -> AttributeSwiftType
    {
        let place = "\(entity.name).\(attribute.name)"
        var declared = (attribute.customClassName ?? "").trimmingCharacters(in: .whitespaces)
        if declared.hasPrefix(".") { declared.removeFirst() }
        let raw = AttributeSwiftType.plain(ref("Value"), absent: "\(ref("Value")).null")
        guard !declared.isEmpty else { return raw }
        let names = Self.typeNames(in: declared)
        guard !names.isEmpty, Self.isTypeExpression(declared) else {
            warn("\(place): transformable class '\(declared)' is not a Swift type; typed as Value")
            return raw
        }
        let foreign = names.filter { !Self.knownCodable.contains($0) && Self.isFrameworkClass($0) }
        if !foreign.isEmpty {
            warn(
                "\(place): transformable class '\(declared)' is not Codable on Linux; typed as Value"
            )
            return raw
        }
        let own = names.filter { !Self.knownCodable.contains($0) }
        if !own.isEmpty {
            assumedCodableTypes.formUnion(own)
            warn(
                "\(place): transformable typed as '\(declared)': it must be Codable & Sendable")
        }
        return .codable(declared)
    }

    /// The type names in a type expression (`[String: Tag]` → `String`, `Tag`).
    static func typeNames(in expression: String) -> [String] {
        expression.split { "[]:<>?, ".contains($0) }.map(String.init)
            .filter { $0 != "Set" && $0 != "Array" && $0 != "Dictionary" && $0 != "Optional" }
    }

    /// Whether `expression` is made only of identifiers, dots and collection punctuation.
    static func isTypeExpression(_ expression: String) -> Bool {
        expression.allSatisfy { $0.isLetter || $0.isNumber || "_.[]:<>?, ".contains($0) }
            && !expression.contains("Any")
    }

    /// Whether `name` is a class of Apple's frameworks (module-qualified, or with a
    /// framework's prefix followed by a capital letter: `NSArray`, `UIImage`, `CLLocation`).
    static func isFrameworkClass(_ name: String) -> Bool {
        if name.contains(".") { return true }
        let prefixes = ["NS", "UI", "CG", "CL", "MK", "CK", "AV", "PH", "SK", "CN", "EK", "HK"]
        for prefix in prefixes where name.hasPrefix(prefix) {
            let rest = name.dropFirst(prefix.count)
            if let next = rest.first, next.isUppercase { return true }
        }
        return false
    }
}
