/// The attribute type changes an inferred (lightweight) mapping accepts, and how a value of the
/// old type becomes a value of the new one. Every other change of type makes
/// ``MappingModel/inferred(from:to:)-(EntityModel,_)`` throw ``MigrationError/cannotInferMapping(entity:property:reason:)``.
///
/// Apple documents "numerical type conversion" as inferable (WWDC 2010, Mastering Core Data);
/// the String column is ObjectGraph's choice of the conversions that lose nothing:
///
/// | from ↓ / to → | Integer 16/32/64 | Double, Float | Decimal | Boolean | String |
/// |---|---|---|---|---|---|
/// | Integer 16/32/64 | same value, narrowing range-checked | nearest | exact | 0 → false, else true | `-42` |
/// | Double, Float | truncated toward zero, range-checked | Float: rounded to Float | `Decimal(x)` | 0 → false, else true | — |
/// | Decimal | truncated toward zero, range-checked | nearest | — | 0 → false, else true | — |
/// | Boolean | 0 / 1 | 0.0 / 1.0 | 0 / 1 | — | `0` / `1` |
/// | String | — | — | — | — | — |
///
/// Date, Binary, UUID, URI, Transformable, ObjectID, Composite and Undefined change to nothing.
/// `nil` stays `nil`. A value that does not fit (70000 into Integer 16, NaN or infinity into an
/// integer, Boolean or Decimal, a finite Double beyond Float's range) is the executor's
/// ``MigrationError/cannotConvertValue(entity:property:reason:)``, naming the object and value.
///
/// ```swift
/// AttributeTypeConversion(from: .integer16, to: .integer64)   // .widening
/// AttributeTypeConversion(from: .string, to: .integer32)      // nil: not inferable
/// ```
public enum AttributeTypeConversion: String, Sendable, Hashable, CaseIterable {
    /// The type is unchanged: the value is copied as it is.
    case identity
    /// Integer to a wider integer, Float to Double: every value fits unchanged.
    case widening
    /// Integer to a narrower integer: values outside the destination's range fail.
    case narrowingInteger
    /// Integer or Boolean to Double, Float or Decimal: the nearest value of the new type.
    case integerToReal
    /// Double, Float or Decimal to an integer: truncated toward zero (SQLite's
    /// `CAST(x AS INTEGER)`); NaN, infinity and values outside the range fail.
    case realToInteger
    /// Between Double, Float and Decimal: the nearest value (Double to Float rounds; a finite
    /// value beyond Float's range, or NaN/infinity into Decimal, fails).
    case realToReal
    /// A number to Boolean: zero is false, anything else true (NaN fails).
    case numberToBoolean
    /// Boolean to an integer: false is 0, true is 1.
    case booleanToInteger
    /// An integer or Boolean to String: its decimal digits (`-42`; a Boolean `0` or `1`, as
    /// NSNumber's `stringValue`).
    case integerToString

    /// The conversion from `source` to `destination`, or `nil` when an inferred mapping cannot
    /// make the change.
    public init?(from source: AttributeType, to destination: AttributeType) {
        if source == destination {
            self = .identity
            return
        }
        guard let from = Family(source), let to = Family(destination) else { return nil }
        switch (from, to) {
        case (.integer, .integer):
            // Integer 16, 32 and 64 have codes 100, 200 and 300: the code orders the widths.
            self = source.coreDataCode < destination.coreDataCode ? .widening : .narrowingInteger
        case (.integer, .real), (.boolean, .real): self = .integerToReal
        case (.real, .integer): self = .realToInteger
        case (.real, .real):
            self = source == .float && destination == .double ? .widening : .realToReal
        case (.integer, .boolean), (.real, .boolean): self = .numberToBoolean
        case (.boolean, .integer): self = .booleanToInteger
        case (.integer, .string), (.boolean, .string): self = .integerToString
        default: return nil
        }
    }

    /// The reason a change of type is refused, for ``MigrationError/cannotInferMapping(entity:property:reason:)``.
    static func refusal(from source: AttributeType, to destination: AttributeType) -> String {
        "the type changes from \(source) to \(destination), which an inferred mapping does not"
            + " convert (use a mapping model)"
    }

    /// The groups the table is written in.
    private enum Family {
        case integer, real, boolean, string

        init?(_ type: AttributeType) {
            switch type {
            case .integer16, .integer32, .integer64: self = .integer
            case .double, .float, .decimal: self = .real
            case .boolean: self = .boolean
            case .string: self = .string
            default: return nil
            }
        }
    }
}
