import Foundation

/// A command's subcommands and options, read from its own help text (its USAGE lines and its
/// OPTIONS section), so completion scripts made from it list what the help lists and cannot
/// go stale.
///
/// ```swift
/// let syntax = CommandSyntax(name: "validate", abstract: "…", help: ValidateCommand.help)
/// syntax.options.map(\.names)  // [["--format"], ["--warnings-as-errors"], …, ["-h", "--help"]]
/// ```
struct CommandSyntax: Sendable, Equatable {
    /// One option of the OPTIONS section.
    struct Option: Sendable, Equatable {
        /// Its spellings (`-h`, `--help`).
        var names: [String]
        /// Its value's placeholder (`<model>`, `N`), or `nil` for a flag.
        var value: String?
        /// The values it takes, when the usage lists them (`--format text|json`).
        var choices: [String]
        /// The first line of its description.
        var summary: String
    }

    /// The command's name.
    var name: String
    /// The command's one-line description.
    var abstract: String
    /// The words that may follow the command's name (`read`, `write` for `defaults`).
    var subcommands: [String]
    /// Its options, in the order the help lists them.
    var options: [Option]

    /// Reads the syntax of `name` from `help`.
    init(name: String, abstract: String, help: String) {
        self.name = name
        self.abstract = abstract
        let lines = help.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        subcommands = Self.subcommands(of: name, in: lines)
        let choices = Self.choices(in: lines)
        options = Self.optionLines(in: lines).compactMap { Self.option($0, choices: choices) }
    }

    /// The words after `objectgraph <name>` in the USAGE lines that are neither options nor
    /// placeholders.
    static func subcommands(of name: String, in lines: [String]) -> [String] {
        var words: [String] = []
        for line in lines {
            let tokens = line.split(separator: " ").map(String.init)
            guard let index = tokens.firstIndex(of: "objectgraph"), index + 2 < tokens.count,
                tokens[index + 1] == name
            else { continue }
            let word = tokens[index + 2]
            let isWord = word.allSatisfy { $0.isLowercase || $0 == "-" } && !word.hasPrefix("-")
            if isWord && !words.contains(word) { words.append(word) }
        }
        return words
    }

    /// The values the USAGE lines list for options: `--format text|json` gives
    /// `["--format": ["text", "json"]]`.
    static func choices(in lines: [String]) -> [String: [String]] {
        var found: [String: [String]] = [:]
        for line in lines {
            let tokens = line.split(separator: " ").map {
                $0.trimmingCharacters(in: CharacterSet(charactersIn: "[]."))
            }
            for (index, token) in tokens.enumerated()
            where token.hasPrefix("--") && index + 1 < tokens.count {
                let values = tokens[index + 1].split(separator: "|").map(String.init)
                let plain = values.allSatisfy { value in
                    !value.isEmpty && value.allSatisfy { $0.isLetter || $0.isNumber || $0 == "-" }
                }
                if values.count > 1 && plain { found[token] = values }
            }
        }
        return found
    }

    /// The lines of the OPTIONS section that start an option (`  --model <model>  The …`).
    static func optionLines(in lines: [String]) -> [String] {
        var inside = false
        var found: [String] = []
        for line in lines {
            if line.hasPrefix("OPTIONS:") {
                inside = true
            } else if inside, let first = line.first, first != " " {
                inside = false
            } else if inside, line.hasPrefix("  -") {
                found.append(line)
            }
        }
        return found
    }

    /// The option a line of the OPTIONS section starts.
    static func option(_ line: String, choices: [String: [String]]) -> Option? {
        let text = line.dropFirst(2)
        // The spellings and value end at the first run of two spaces; the summary follows.
        let split = text.range(of: "  ")
        let head = split.map { String(text[..<$0.lowerBound]) } ?? String(text)
        let summary =
            split.map { text[$0.upperBound...].trimmingCharacters(in: .whitespaces) } ?? ""
        var names: [String] = []
        var value: String?
        for part in head.split(separator: ",") {
            let words = part.split(separator: " ").map(String.init)
            guard let first = words.first, first.hasPrefix("-") else { continue }
            names.append(first)
            if words.count > 1 { value = words.dropFirst().joined(separator: " ") }
        }
        guard !names.isEmpty else { return nil }
        let listed = names.compactMap { choices[$0] }.first ?? []
        return Option(names: names, value: value, choices: listed, summary: summary)
    }
}
