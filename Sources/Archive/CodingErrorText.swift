/// Short, readable text for `EncodingError` and `DecodingError`: the one wording Archive and
/// Preferences both give their coding failures.
///
/// | Error | Text |
/// |---|---|
/// | `EncodingError.invalidValue` | `<debug description> at <path>` |
/// | `DecodingError.typeMismatch` | `expected <type> at <path>: <debug description>` |
/// | `DecodingError.valueNotFound` | `no <type> at <path>` |
/// | `DecodingError.keyNotFound` | `missing key '<key>' at <path>` |
/// | `DecodingError.dataCorrupted` | `<debug description> at <path>` |
/// | anything else | the error's own description |
///
/// A debug description that is empty is left out (`invalid value` stands in for the first
/// row's). The path is the coding path: keys by name and indexes as `[n]`, joined by `.`
/// (`people.[2].name`), or `the top level` when it is empty. The type-mismatch text keeps the
/// debug description because it says what was found (`… but found a string instead.`); the
/// missing-key and missing-value ones add nothing to the rest.
package enum CodingErrorText {
    /// The text for `error`, ignoring the first `ignoredPathComponents` components of its
    /// coding path (for values the caller wrapped in a container of its own before coding).
    package static func describe(_ error: any Error, ignoringFirst ignoredPathComponents: Int = 0)
        -> String
    {
        func at(_ context: EncodingError.Context) -> String {
            path(Array(context.codingPath.dropFirst(ignoredPathComponents)))
        }
        func at(_ context: DecodingError.Context) -> String {
            path(Array(context.codingPath.dropFirst(ignoredPathComponents)))
        }
        switch error {
        case EncodingError.invalidValue(_, let context):
            let what = context.debugDescription.isEmpty ? "invalid value" : context.debugDescription
            return "\(what) at \(at(context))"
        case DecodingError.typeMismatch(let type, let context):
            let text = "expected \(type) at \(at(context))"
            return context.debugDescription.isEmpty ? text : text + ": " + context.debugDescription
        case DecodingError.valueNotFound(let type, let context):
            return "no \(type) at \(at(context))"
        case DecodingError.keyNotFound(let key, let context):
            return "missing key '\(key.stringValue)' at \(at(context))"
        case DecodingError.dataCorrupted(let context):
            let what = context.debugDescription.isEmpty ? "corrupt data" : context.debugDescription
            return "\(what) at \(at(context))"
        default:
            return "\(error)"
        }
    }

    /// `codingPath` as text: keys by name and indexes as `[n]`, joined by `.`; `the top level`
    /// when it is empty.
    package static func path(_ codingPath: [any CodingKey]) -> String {
        if codingPath.isEmpty { return "the top level" }
        return codingPath.map { key in key.intValue.map { "[\($0)]" } ?? key.stringValue }
            .joined(separator: ".")
    }
}
