import Foundation

extension Attribute {
    /// Converts `value` to what this attribute stores, or throws naming entity and property.
    ///
    /// Integers fit their width; doubles accept integers; decimals accept integers and doubles;
    /// Booleans accept 0 and 1. `nil` is always accepted here (required values are checked when
    /// saving).
    func coerce(_ value: Value, entity: String) throws -> Value {
        try type.coerce(value, entity: entity, property: name)
    }
}

extension AttributeType {
    /// Converts `value` to what an attribute of this type stores, or throws naming `entity`
    /// and `name`.
    func coerce(_ value: Value, entity: String, property name: String) throws -> Value {
        let type = self
        func mismatch() -> ObjectGraphError {
            .typeMismatch(
                entity: entity, property: name, expected: type.description,
                got: value.kindDescription)
        }
        if case .null = value { return .null }
        switch type {
        case .integer16, .integer32, .integer64:
            let integer: Int64
            switch value {
            case .integer(let v): integer = v
            case .bool(let flag): integer = flag ? 1 : 0
            case .double(let v):
                guard let exact = Int64(exactly: v) else { throw mismatch() }
                integer = exact
            default: throw mismatch()
            }
            if let range = type.integerRange, !range.contains(integer) {
                throw ObjectGraphError.typeMismatch(
                    entity: entity, property: name,
                    expected: "\(type) (\(range.lowerBound)...\(range.upperBound))",
                    got: value.kindDescription)
            }
            return .integer(integer)
        case .double, .float:
            guard let double = Double(value: value) else { throw mismatch() }
            return .double(type == .float ? Double(Float(double)) : double)
        case .decimal:
            guard let decimal = Decimal(value: value) else { throw mismatch() }
            return .decimal(decimal)
        case .boolean:
            switch value {
            case .bool: return value
            case .integer(0): return .bool(false)
            case .integer(1): return .bool(true)
            default: throw mismatch()
            }
        case .string:
            guard case .string = value else { throw mismatch() }
            return value
        case .date:
            guard case .date = value else { throw mismatch() }
            return value
        case .binary:
            guard case .data = value else { throw mismatch() }
            return value
        case .uuid:
            guard case .uuid = value else { throw mismatch() }
            return value
        case .uri:
            guard case .uri = value else { throw mismatch() }
            return value
        case .objectID:
            guard case .objectID = value else { throw mismatch() }
            return value
        case .transformable, .undefined, .composite, .unknown:
            return value
        }
    }
}
