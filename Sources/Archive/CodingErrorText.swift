/// Short, readable text for `EncodingError` and `DecodingError`.
enum CodingErrorText {
    static func describe(_ error: any Error) -> String {
        switch error {
        case EncodingError.invalidValue(_, let context):
            return "\(context.debugDescription) at \(path(context.codingPath))"
        case DecodingError.typeMismatch(let type, let context):
            return "expected \(type) at \(path(context.codingPath))"
        case DecodingError.valueNotFound(let type, let context):
            return "no \(type) at \(path(context.codingPath))"
        case DecodingError.keyNotFound(let key, let context):
            return "missing key '\(key.stringValue)' at \(path(context.codingPath))"
        case DecodingError.dataCorrupted(let context):
            return "\(context.debugDescription) at \(path(context.codingPath))"
        default:
            return "\(error)"
        }
    }

    static func path(_ codingPath: [any CodingKey]) -> String {
        if codingPath.isEmpty { return "the top level" }
        return codingPath.map { key in key.intValue.map { "[\($0)]" } ?? key.stringValue }
            .joined(separator: ".")
    }
}
