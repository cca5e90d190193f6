import Foundation

/// The validation rules Xcode's model compiler turns an attribute's minimum, maximum and
/// regular expression into (`NSValidationPredicates` with `NSValidationWarnings` holding Core
/// Data's error codes), shared by the model-cache writer and reader:
///
/// | Model field | Predicate | Warning |
/// |---|---|---|
/// | number minimum / maximum | `SELF >= min` / `SELF <= max` | 1620 / 1610 |
/// | string minimum / maximum length | `length >= min` / `length <= max` | 1670 / 1660 |
/// | string regular expression | `SELF MATCHES "…"` | 1680 |
/// | date minimum / maximum | `SELF >= date` / `SELF <= date` | 1640 / 1630 |
///
/// A rule of any other shape, or with a text warning, is one of the attribute's
/// ``Attribute/validationPredicates``.
enum ArchivedModelRules {
    /// One compiled rule.
    enum Kind: Int64, CaseIterable {
        case numberTooLarge = 1610
        case numberTooSmall = 1620
        case dateTooLate = 1630
        case dateTooSoon = 1640
        case stringTooLong = 1660
        case stringTooShort = 1670
        case pattern = 1680
    }

    static func isInteger(_ type: AttributeType) -> Bool {
        type == .integer16 || type == .integer32 || type == .integer64
    }

    static func isNumber(_ type: AttributeType) -> Bool {
        isInteger(type) || type == .decimal || type == .double || type == .float
    }

    /// The compiled rules of `attribute`'s minimum, maximum and regular expression (text that
    /// does not read as a number is left out, as the compiler refuses it).
    static func rules(of attribute: Attribute) -> [(predicate: Predicate, kind: Kind)] {
        var result: [(predicate: Predicate, kind: Kind)] = []
        func rule(_ left: Expression, _ op: ComparisonOperator, _ value: Value?, _ kind: Kind) {
            guard let value else { return }
            result.append((.comparison(Comparison(left, op, .constant(value))), kind))
        }
        let type = attribute.type
        if isNumber(type) {
            let number: (String?) -> Value? = { text in
                guard let text = text?.trimmingCharacters(in: .whitespaces) else { return nil }
                return isInteger(type)
                    ? Int64(text).map(Value.integer) : Double(text).map(Value.double)
            }
            rule(
                .evaluatedObject, .greaterThanOrEqual, number(attribute.minValueString),
                .numberTooSmall)
            rule(
                .evaluatedObject, .lessThanOrEqual, number(attribute.maxValueString),
                .numberTooLarge)
        } else if type == .string {
            let length = Expression.keyPath(PredicateKeyPath("length"))
            let count: (String?) -> Value? = { text in
                text.flatMap { Int64($0.trimmingCharacters(in: .whitespaces)) }.map(Value.integer)
            }
            rule(length, .greaterThanOrEqual, count(attribute.minValueString), .stringTooShort)
            rule(length, .lessThanOrEqual, count(attribute.maxValueString), .stringTooLong)
            rule(
                .evaluatedObject, .matches, attribute.regularExpression.map(Value.string), .pattern)
        } else if type == .date {
            let date: (Double?) -> Value? = { seconds in
                seconds.map { Value.date(Date(timeIntervalSinceReferenceDate: $0)) }
            }
            rule(
                .evaluatedObject, .greaterThanOrEqual, date(attribute.minDateTimeInterval),
                .dateTooSoon)
            rule(
                .evaluatedObject, .lessThanOrEqual, date(attribute.maxDateTimeInterval),
                .dateTooLate)
        }
        return result
    }

    /// Sets the field of `attribute` that the compiled rule `predicate` with warning `kind`
    /// came from; `false` when the predicate is not of that rule's shape.
    static func apply(_ predicate: Predicate, _ kind: Kind, to attribute: inout Attribute) -> Bool {
        guard case .comparison(let comparison) = predicate, comparison.modifier == .direct,
            comparison.options == [], case .constant(let value) = comparison.right
        else { return false }
        let onLength = comparison.left == .keyPath(PredicateKeyPath("length"))
        let onSelf = comparison.left == .evaluatedObject
        switch (kind, comparison.operator, value) {
        case (.numberTooSmall, .greaterThanOrEqual, _) where onSelf && isNumber(attribute.type):
            guard let text = numberText(value), attribute.minValueString == nil else {
                return false
            }
            attribute.minValueString = text
        case (.numberTooLarge, .lessThanOrEqual, _) where onSelf && isNumber(attribute.type):
            guard let text = numberText(value), attribute.maxValueString == nil else {
                return false
            }
            attribute.maxValueString = text
        case (.stringTooShort, .greaterThanOrEqual, .integer(let count))
        where onLength && attribute.type == .string && attribute.minValueString == nil:
            attribute.minValueString = String(count)
        case (.stringTooLong, .lessThanOrEqual, .integer(let count))
        where onLength && attribute.type == .string && attribute.maxValueString == nil:
            attribute.maxValueString = String(count)
        case (.pattern, .matches, .string(let pattern))
        where onSelf && attribute.type == .string && attribute.regularExpression == nil:
            attribute.regularExpression = pattern
        case (.dateTooSoon, .greaterThanOrEqual, .date(let date))
        where onSelf && attribute.type == .date && attribute.minDateTimeInterval == nil:
            attribute.minDateTimeInterval = date.timeIntervalSinceReferenceDate
        case (.dateTooLate, .lessThanOrEqual, .date(let date))
        where onSelf && attribute.type == .date && attribute.maxDateTimeInterval == nil:
            attribute.maxDateTimeInterval = date.timeIntervalSinceReferenceDate
        default:
            return false
        }
        return true
    }

    /// A number as a model file writes it: integral values without a fraction.
    static func numberText(_ value: Value) -> String? {
        switch value {
        case .integer(let number): return String(number)
        case .double(let number):
            if number.rounded() == number, abs(number) < 1e15 { return String(Int64(number)) }
            return number.description
        default: return nil
        }
    }
}
