/// A type whose key paths name model properties (generated classes conform).
public protocol KeyPathNaming {
    /// The model property a key path of this type names (`\Student.name` → "name";
    /// a key path through a to-one, `\Student.advisor?.name`, → "advisor.name" when the
    /// generated code lists it), or nil.
    static func propertyName(for keyPath: AnyKeyPath) -> String?
}
