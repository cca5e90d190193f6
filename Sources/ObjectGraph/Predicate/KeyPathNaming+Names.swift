extension KeyPathNaming {
    /// The model key a key path of this type names, as the generated code lists it.
    ///
    /// ```swift
    /// try Student.name(of: \.name)            // "name"
    /// try Student.name(of: \.advisor?.name)   // "advisor.name"
    /// request.relationshipKeyPathsForPrefetching = [try Student.name(of: \.courses)]
    /// ```
    /// - Throws: ``KeyPathNamingError/unnamedKeyPath(_:type:)`` naming the key path and the
    ///   type when the table does not list it.
    public static func name(of keyPath: PartialKeyPath<Self>) throws(KeyPathNamingError)
        -> String
    {
        try KeyPathNames.name(of: keyPath)
    }
}

/// Names key paths through their root type's ``KeyPathNaming`` table.
enum KeyPathNames {
    /// The model key `keyPath` names, read from its root type's table.
    static func name(of keyPath: AnyKeyPath) throws(KeyPathNamingError) -> String {
        let root = type(of: keyPath).rootType
        guard let naming = root as? any KeyPathNaming.Type else {
            throw .rootNotNaming(describe(keyPath), type: "\(root)")
        }
        guard let name = naming.propertyName(for: keyPath) else {
            throw .unnamedKeyPath(describe(keyPath), type: "\(root)")
        }
        return name
    }

    /// The key path's expression, or one that carries the naming error (for the builder's
    /// operators, which cannot throw).
    static func expression(of keyPath: AnyKeyPath) -> Expression {
        do {
            return .key(try name(of: keyPath))
        } catch {
            return error.expression
        }
    }

    /// A constant for a value compared with `keyPath`, or an expression carrying the error
    /// when the value has no predicate form. Raw-representable values (enums stored by their
    /// raw value) compare by their raw value.
    static func constant(_ value: Any?, comparedWith keyPath: AnyKeyPath) -> Expression {
        var argument = FormatArgument.unwrap(value)
        if let raw = argument as? any RawRepresentable { argument = raw.rawValue }
        do {
            return try FormatArgument.expression(from: argument)
        } catch {
            return KeyPathNamingError.unsupportedValue(
                describe(keyPath), type: "\(type(of: argument ?? value as Any))"
            ).expression
        }
    }

    /// A key path's text (`\Student.name`).
    static func describe(_ keyPath: AnyKeyPath) -> String { "\(keyPath)" }
}
