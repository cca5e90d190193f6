import Foundation

/// The string operators: case and diacritic folding, prefix, suffix, substring, `LIKE`
/// wildcards and whole-string `MATCHES`.
///
/// As on Apple platforms, an empty pattern never matches `BEGINSWITH`, `ENDSWITH` or
/// `CONTAINS` (`NSString` finds no range for an empty string).
enum StringMatching {
    /// The string with `[c]` and `[d]` applied.
    static func fold(_ text: String, _ options: ComparisonOptions) -> String {
        var fold: String.CompareOptions = []
        if options.contains(.caseInsensitive) { fold.insert(.caseInsensitive) }
        if options.contains(.diacriticInsensitive) { fold.insert(.diacriticInsensitive) }
        return fold.isEmpty ? text : text.folding(options: fold, locale: nil)
    }

    static func contains(_ text: String, _ part: String, options: ComparisonOptions) -> Bool {
        if part.isEmpty { return false }
        return fold(text, options).contains(fold(part, options))
    }

    static func match(
        _ text: String, _ op: ComparisonOperator, _ pattern: String, options: ComparisonOptions
    ) throws -> Bool {
        switch op {
        case .beginsWith:
            return !pattern.isEmpty && fold(text, options).hasPrefix(fold(pattern, options))
        case .endsWith:
            return !pattern.isEmpty && fold(text, options).hasSuffix(fold(pattern, options))
        case .like:
            return like(Array(fold(text, options)), Array(fold(pattern, options)))
        default:
            let diacritics = options.intersection(.diacriticInsensitive)
            let regex = try RegexCache.shared.regex(
                fold(pattern, diacritics), caseInsensitive: options.contains(.caseInsensitive))
            let subject = fold(text, diacritics)
            let range = NSRange(location: 0, length: subject.utf16.count)
            return regex.firstMatch(in: subject, options: [], range: range) != nil
        }
    }

    /// `*` matches any run of characters and `?` exactly one; the whole string must match.
    /// Linear backtracking to the last `*`: O(text × pattern) at worst, never exponential.
    static func like(_ text: [Character], _ pattern: [Character]) -> Bool {
        var t = 0
        var p = 0
        var star = -1
        var mark = 0
        while t < text.count {
            if p < pattern.count, pattern[p] == "?" || (pattern[p] != "*" && pattern[p] == text[t])
            {
                t += 1
                p += 1
            } else if p < pattern.count, pattern[p] == "*" {
                star = p
                mark = t
                p += 1
            } else if star >= 0 {
                p = star + 1
                mark += 1
                t = mark
            } else {
                return false
            }
        }
        while p < pattern.count, pattern[p] == "*" { p += 1 }
        return p == pattern.count
    }
}
