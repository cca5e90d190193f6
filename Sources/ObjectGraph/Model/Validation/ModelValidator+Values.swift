import Foundation

extension ModelValidator {
    /// `lenient-default-value`, `ignored-default-value` and `default-value-out-of-range`.
    ///
    /// Defaults are judged with ``ValueReading``, the reading the loader gives
    /// ``Attribute/defaultValue``, so the value a message names is the value objects get.
    mutating func checkDefaultValue(of attribute: Attribute, in entity: Entity) {
        guard let text = attribute.defaultValueString else { return }
        let type = attribute.type
        let label = "default value \(Self.quoted(text)) of '\(entity.name).\(attribute.name)'"
        if case .unknown = type { return }  // reported by unknown-attribute-type
        if let range = Self.outOfRangeText(text, for: type) {
            report(
                .defaultValueOutOfRange, "\(label) is out of range for \(type) (\(range))",
                at: attribute.location, entity: entity.name, property: attribute.name)
            return
        }
        if type == .date, let interval = attribute.defaultDateTimeInterval {
            report(
                .lenientDefaultValue,
                "\(label) is not a Date default; Core Data ignores the text and uses "
                    + "defaultDateTimeInterval \(Self.dateText(interval))",
                at: attribute.location, entity: entity.name, property: attribute.name)
            return
        }
        switch ValueReading.read(text, as: type) {
        case .exact:
            break
        case .lenient(let value):
            // An empty default for a type without textual values means "no default".
            if text.isEmpty, value.isNull { return }
            report(
                .lenientDefaultValue,
                "\(label) is not written as \(Self.article(type)) \(type); Core Data reads it "
                    + "as \(Self.shown(value))",
                at: attribute.location, entity: entity.name, property: attribute.name)
        case .unreadable:
            report(
                .ignoredDefaultValue,
                "\(label) cannot be read as \(Self.article(type)) \(type); Core Data ignores it, "
                    + "so the attribute has no default",
                at: attribute.location, entity: entity.name, property: attribute.name)
        }
    }

    /// The range `text` falls outside of, when it is a number too large for `type`: an integer
    /// beyond its width, a Float beyond Float's magnitude.
    static func outOfRangeText(_ text: String, for type: AttributeType) -> String? {
        // Only numbers can be out of range; other defaults (a 40 MB String) are not copied.
        guard type.integerRange != nil || type == .float else { return nil }
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if let range = type.integerRange {
            let rangeText = "\(range.lowerBound)...\(range.upperBound)"
            guard let value = Int64(trimmed) else {
                return isInteger(trimmed) ? rangeText : nil  // digits beyond Int64
            }
            return range.contains(value) ? nil : rangeText
        }
        if type == .float, let value = Double(trimmed), value.isFinite,
            abs(value) > Double(Float.greatestFiniteMagnitude)
        {
            return "magnitude at most \(Float.greatestFiniteMagnitude)"
        }
        return nil
    }

    /// `invalid-min-max`, `min-greater-than-max` and `default-outside-min-max`.
    mutating func checkMinMax(of attribute: Attribute, in entity: Entity) {
        let type = attribute.type
        let bounds: (min: Double?, max: Double?, default: Double?, unit: String)
        if type.isNumeric {
            bounds = (
                numericBound("minimum", attribute.minValueString, attribute, entity),
                numericBound("maximum", attribute.maxValueString, attribute, entity),
                numericDefault(of: attribute), "value"
            )
        } else if type == .string {
            bounds = (
                lengthBound("minimum", attribute.minValueString, attribute, entity),
                lengthBound("maximum", attribute.maxValueString, attribute, entity),
                attribute.defaultValueString.map { Double($0.utf16.count) }, "length"
            )
        } else if type == .date {
            dateBoundText(
                "minimum", attribute.minValueString, attribute.minDateTimeInterval, attribute,
                entity)
            dateBoundText(
                "maximum", attribute.maxValueString, attribute.maxDateTimeInterval, attribute,
                entity)
            bounds = (
                attribute.minDateTimeInterval, attribute.maxDateTimeInterval,
                attribute.defaultDateTimeInterval, "date"
            )
        } else {
            return
        }
        let shown: (Double) -> String = { value in
            type == .date ? Self.dateText(value) : Self.numberText(value)
        }
        let owner = "'\(entity.name).\(attribute.name)'"
        if let minimum = bounds.min, let maximum = bounds.max, minimum > maximum {
            report(
                .minGreaterThanMax,
                "minimum \(bounds.unit) \(shown(minimum)) of \(owner) is greater than its "
                    + "maximum \(bounds.unit) \(shown(maximum))",
                at: attribute.location, entity: entity.name, property: attribute.name)
            return
        }
        guard let value = bounds.default else { return }
        let tooSmall = bounds.min.map { value < $0 } ?? false
        let tooLarge = bounds.max.map { value > $0 } ?? false
        guard tooSmall || tooLarge else { return }
        let range = "\(bounds.min.map(shown) ?? "")...\(bounds.max.map(shown) ?? "")"
        report(
            .defaultOutsideMinMax,
            "default \(bounds.unit) \(shown(value)) of \(owner) is outside its allowed range "
                + "\(range); new objects fail validation until it is changed",
            at: attribute.location, entity: entity.name, property: attribute.name)
    }

    /// Reads a numeric minimum or maximum, reporting text Core Data reads leniently or not at
    /// all. Bounds are read as 64-bit integers or doubles, not limited to the attribute's width.
    private mutating func numericBound(
        _ label: String, _ text: String?, _ attribute: Attribute, _ entity: Entity
    ) -> Double? {
        guard let text else { return nil }
        let type = attribute.type
        let reading = ValueReading.read(text, as: type.isInteger ? .integer64 : .double)
        let owner = "\(label) \(Self.quoted(text)) of '\(entity.name).\(attribute.name)'"
        switch reading {
        case .exact(let value):
            return Self.number(value)
        case .lenient(let value):
            report(
                .invalidMinMax,
                "\(owner) is not written as \(Self.article(type)) \(type); Core Data reads it "
                    + "as \(Self.shown(value))",
                at: attribute.location, entity: entity.name, property: attribute.name)
            return Self.number(value)
        case .unreadable:
            report(
                .invalidMinMax,
                "\(owner) cannot be read as \(Self.article(type)) \(type); Core Data ignores it",
                at: attribute.location, entity: entity.name, property: attribute.name)
            return nil
        }
    }

    /// Reads a String length limit: a non-negative integer.
    private mutating func lengthBound(
        _ label: String, _ text: String?, _ attribute: Attribute, _ entity: Entity
    ) -> Double? {
        guard let text else { return nil }
        if let length = Self.count(text) { return Double(length) }
        report(
            .invalidMinMax,
            "\(label) length \(Self.quoted(text)) of '\(entity.name).\(attribute.name)' is not a "
                + "non-negative integer; Core Data ignores it",
            at: attribute.location, entity: entity.name, property: attribute.name)
        return nil
    }

    /// Date limits live in `min/maxDateTimeInterval`; Xcode writes text beside them, which is
    /// fine, but text alone is ignored.
    private mutating func dateBoundText(
        _ label: String, _ text: String?, _ interval: Double?, _ attribute: Attribute,
        _ entity: Entity
    ) {
        guard let text, interval == nil else { return }
        let field = label == "minimum" ? "minDateTimeInterval" : "maxDateTimeInterval"
        report(
            .invalidMinMax,
            "\(label) \(Self.quoted(text)) of '\(entity.name).\(attribute.name)' has no \(field); "
                + "Core Data ignores the text",
            at: attribute.location, entity: entity.name, property: attribute.name)
    }

    /// The default of a numeric attribute as Core Data reads it, if it reads it.
    private func numericDefault(of attribute: Attribute) -> Double? {
        guard let text = attribute.defaultValueString,
            Self.outOfRangeText(text, for: attribute.type) == nil
        else { return nil }
        return Self.number(ValueReading.read(text, as: attribute.type).value)
    }

    // MARK: Values and formatting

    /// A numeric value as a `Double`, for comparing limits.
    static func number(_ value: Value) -> Double? {
        switch value {
        case .integer(let integer): return Double(integer)
        case .double(let double): return double.isFinite ? double : nil
        case .decimal(let decimal): return NSDecimalNumber(decimal: decimal).doubleValue
        default: return nil
        }
    }

    /// A value the way a model file would spell it: `0`, `YES`, `2.5`, a date with its interval.
    static func shown(_ value: Value) -> String {
        switch value {
        case .integer(let integer): return String(integer)
        case .double(let double): return numberText(double)
        case .decimal(let decimal): return decimal.description
        case .bool(let flag): return flag ? "YES" : "NO"
        case .date(let date): return dateText(date.timeIntervalSinceReferenceDate)
        case .null: return "no value"
        default: return value.description
        }
    }

    /// Model text quoted for a message: `'text'`, or for long text its first 60 characters
    /// and its size, so a 40 MB value does not become a 40 MB message.
    ///
    /// ```swift
    /// ModelValidator.quoted("0.0")  // '0.0'
    /// ModelValidator.quoted(String(repeating: "x", count: 100))  // 'xxx…' (100 bytes)
    /// ```
    static func quoted(_ text: String) -> String {
        let limit = 80
        guard text.utf8.count > limit else { return "'\(text)'" }
        return "'\(text.prefix(60))…' (\(text.utf8.count) bytes)"
    }

    static func article(_ type: AttributeType) -> String {
        switch type {
        case .integer16, .integer32, .integer64, .undefined: return "an"
        default: return "a"
        }
    }

    /// Whether `text` is an optional sign followed by ASCII digits only.
    static func isInteger(_ text: String) -> Bool {
        var digits = Substring(text)
        if digits.first == "+" || digits.first == "-" { digits = digits.dropFirst() }
        return !digits.isEmpty && digits.allSatisfy { $0.isASCII && $0.isNumber }
    }

    /// A number without a trailing `.0` when it is whole.
    static func numberText(_ value: Double) -> String {
        if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
        return String(value)
    }

    /// `283996800 (2010-01-01T00:00:00Z)`.
    static func dateText(_ interval: Double) -> String {
        guard interval.isFinite else { return String(interval) }
        let formatter = ISO8601DateFormatter()
        let date = Date(timeIntervalSinceReferenceDate: interval)
        return "\(numberText(interval)) (\(formatter.string(from: date)))"
    }
}
