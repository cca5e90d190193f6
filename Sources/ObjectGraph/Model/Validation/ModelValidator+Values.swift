import Foundation

extension ModelValidator {
    /// `lenient-default-value`, `ignored-default-value` and `default-value-out-of-range`.
    mutating func checkDefaultValue(of attribute: Attribute, in entity: Entity) {
        let name = attribute.name
        let label =
            "default value '\(attribute.defaultValueString ?? "")' of '\(entity.name).\(name)'"
        if attribute.type == .date {
            checkDateDefault(of: attribute, in: entity, label: label)
            return
        }
        guard let text = attribute.defaultValueString,
            let reading = AttributeValueReading.read(text, as: attribute.type)
        else { return }
        let type = attribute.type
        switch reading.outcome {
        case .exact:
            break
        case .lenient:
            report(
                .lenientDefaultValue,
                "\(label) is not written as \(Self.article(type)) \(type); Core Data reads it "
                    + "as \(reading.shown ?? "?")",
                at: attribute.location, entity: entity.name, property: name)
        case .unreadable:
            report(
                .ignoredDefaultValue,
                "\(label) cannot be read as \(Self.article(type)) \(type); Core Data ignores it, "
                    + "so the attribute has no default",
                at: attribute.location, entity: entity.name, property: name)
        case .outOfRange:
            report(
                .defaultValueOutOfRange,
                "\(label) is out of range for \(type)\(Self.rangeText(type))",
                at: attribute.location, entity: entity.name, property: name)
        }
    }

    /// Date defaults live in `defaultDateTimeInterval`; text beside it is ignored, and text alone
    /// is read only in the form old Xcode wrote (`2010-01-01 12:00:00 -0600`).
    private mutating func checkDateDefault(
        of attribute: Attribute, in entity: Entity, label: String
    ) {
        guard let text = attribute.defaultValueString else { return }
        if let interval = attribute.defaultDateTimeInterval {
            report(
                .lenientDefaultValue,
                "\(label) is not a Date default; Core Data ignores the text and uses "
                    + "defaultDateTimeInterval \(Self.dateText(interval))",
                at: attribute.location, entity: entity.name, property: attribute.name)
        } else if let date = Self.oldXcodeDate(text) {
            report(
                .lenientDefaultValue,
                "\(label) is written as text; Core Data reads it as "
                    + Self.dateText(date.timeIntervalSinceReferenceDate),
                at: attribute.location, entity: entity.name, property: attribute.name)
        } else {
            report(
                .ignoredDefaultValue,
                "\(label) cannot be read as a Date; Core Data ignores it, so the attribute has "
                    + "no default",
                at: attribute.location, entity: entity.name, property: attribute.name)
        }
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
                "minimum", attribute.minValueString, attribute.minDateTimeInterval,
                attribute, entity)
            dateBoundText(
                "maximum", attribute.maxValueString, attribute.maxDateTimeInterval,
                attribute, entity)
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
    /// all. Bounds are not limited to the attribute's width.
    private mutating func numericBound(
        _ label: String, _ text: String?, _ attribute: Attribute, _ entity: Entity
    ) -> Double? {
        guard let text else { return nil }
        let type = attribute.type
        let reading =
            type.isInteger
            ? AttributeValueReading.readInteger(text, range: Int64.min...Int64.max)
            : AttributeValueReading.readDecimal(text, limit: Double.greatestFiniteMagnitude)
        let owner = "\(label) '\(text)' of '\(entity.name).\(attribute.name)'"
        switch reading.outcome {
        case .exact:
            return reading.number
        case .lenient:
            report(
                .invalidMinMax,
                "\(owner) is not written as \(Self.article(type)) \(type); Core Data reads it "
                    + "as \(reading.shown ?? "?")",
                at: attribute.location, entity: entity.name, property: attribute.name)
            return reading.number
        case .unreadable, .outOfRange:
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
            "\(label) length '\(text)' of '\(entity.name).\(attribute.name)' is not a "
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
        report(
            .invalidMinMax,
            "\(label) '\(text)' of '\(entity.name).\(attribute.name)' has no "
                + "\(label == "minimum" ? "min" : "max")DateTimeInterval; Core Data ignores the "
                + "text",
            at: attribute.location, entity: entity.name, property: attribute.name)
    }

    /// The default of a numeric attribute as Core Data reads it, if it reads it.
    private func numericDefault(of attribute: Attribute) -> Double? {
        guard let text = attribute.defaultValueString,
            let reading = AttributeValueReading.read(text, as: attribute.type)
        else { return nil }
        return reading.outcome == .exact || reading.outcome == .lenient ? reading.number : nil
    }

    // MARK: Formatting

    static func article(_ type: AttributeType) -> String {
        switch type {
        case .integer16, .integer32, .integer64, .undefined: return "an"
        case .unknown(let name): return "aeiouAEIOU".contains(name.first ?? "x") ? "an" : "a"
        default: return "a"
        }
    }

    static func rangeText(_ type: AttributeType) -> String {
        if let range = type.integerRange { return " (\(range.lowerBound)...\(range.upperBound))" }
        if type == .float { return " (magnitude at most \(Float.greatestFiniteMagnitude))" }
        return ""
    }

    /// A number without a trailing `.0` when it is whole.
    static func numberText(_ value: Double) -> String {
        if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
        return String(value)
    }

    /// `283996800 (2010-01-01T00:00:00Z)`.
    static func dateText(_ interval: Double) -> String {
        let formatter = ISO8601DateFormatter()
        let date = Date(timeIntervalSinceReferenceDate: interval)
        return "\(numberText(interval)) (\(formatter.string(from: date)))"
    }

    /// Parses the `yyyy-MM-dd HH:mm:ss ±HHMM` text old Xcode wrote for Date defaults.
    static func oldXcodeDate(_ text: String) -> Date? {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.dateFormat = "yyyy-MM-dd HH:mm:ss Z"
        return formatter.date(from: text)
    }
}
