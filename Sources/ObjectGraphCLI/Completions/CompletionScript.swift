/// Shell completion scripts for `objectgraph` (bash, zsh, fish), made from every command's
/// ``CommandSyntax``.
///
/// ```swift
/// print(CompletionScript.bash(CompletionScript.syntaxes))
/// ```
enum CompletionScript {
    /// The shells there are scripts for.
    static let shells = ["bash", "zsh", "fish"]

    /// The options of `objectgraph` itself.
    static let toolOptions: [(name: String, summary: String)] = [
        ("--help", "Show the tool's help"), ("--version", "Print the version"),
    ]

    /// The syntax of every listed command (hidden ones, named `_…`, left out).
    static var syntaxes: [CommandSyntax] {
        CommandLineTool.commands.filter { !$0.name.hasPrefix("_") }.map {
            CommandSyntax(name: $0.name, abstract: $0.abstract, help: $0.help)
        }
    }

    /// The script for `shell`, or `nil` for a shell there is none for.
    static func script(for shell: String, _ syntaxes: [CommandSyntax]) -> String? {
        switch shell {
        case "bash": return bash(syntaxes)
        case "zsh": return zsh(syntaxes)
        case "fish": return fish(syntaxes)
        default: return nil
        }
    }

    /// Whether `word` can go into a script unquoted (names, options and choices only ever
    /// are; anything else is left out rather than quoted).
    static func isPlain(_ word: String) -> Bool {
        !word.isEmpty
            && word.unicodeScalars.allSatisfy {
                ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0)
                    || $0 == "-" || $0 == "_"
            }
    }

    /// `words` that are plain, joined with spaces.
    static func plain(_ words: [String]) -> String {
        words.filter(isPlain).joined(separator: " ")
    }

    /// The bash script: `source <(objectgraph completions bash)`.
    static func bash(_ syntaxes: [CommandSyntax]) -> String {
        var lines = [
            "# bash completion for objectgraph: source <(objectgraph completions bash)",
            "_objectgraph() {",
            "    local cur prev",
            "    cur=\"${COMP_WORDS[COMP_CWORD]}\"",
            "    prev=\"${COMP_WORDS[COMP_CWORD-1]}\"",
            "    if [ \"$COMP_CWORD\" -eq 1 ]; then",
            "        COMPREPLY=($(compgen -W \"\(plain(syntaxes.map(\.name) + toolOptions.map(\.name)))\" -- \"$cur\"))",
            "        return 0",
            "    fi",
            "    case \"${COMP_WORDS[1]}\" in",
        ]
        for syntax in syntaxes where isPlain(syntax.name) {
            lines.append("        \(syntax.name))")
            if !syntax.subcommands.isEmpty {
                lines += [
                    "            if [ \"$COMP_CWORD\" -eq 2 ]; then",
                    "                COMPREPLY=($(compgen -W \"\(plain(syntax.subcommands))\" -- \"$cur\"))",
                    "                return 0",
                    "            fi",
                ]
            }
            let valued = syntax.options.filter { $0.value != nil }
            if !valued.isEmpty {
                lines.append("            case \"$prev\" in")
                for option in valued {
                    let names = option.names.filter(isPlain).joined(separator: "|")
                    guard !names.isEmpty else { continue }
                    let reply =
                        option.choices.isEmpty
                        ? "compgen -f -- \"$cur\""
                        : "compgen -W \"\(plain(option.choices))\" -- \"$cur\""
                    lines.append("                \(names)) COMPREPLY=($(\(reply))); return 0 ;;")
                }
                lines.append("            esac")
            }
            let words = plain(syntax.options.flatMap(\.names))
            lines += [
                "            if [[ \"$cur\" == -* ]]; then",
                "                COMPREPLY=($(compgen -W \"\(words)\" -- \"$cur\"))",
                "            else",
                "                COMPREPLY=($(compgen -f -- \"$cur\"))",
                "            fi",
                "            ;;",
            ]
        }
        lines += [
            "    esac",
            "    return 0",
            "}",
            "complete -o filenames -F _objectgraph objectgraph",
        ]
        return lines.joined(separator: "\n") + "\n"
    }

    /// The zsh script: save it as `_objectgraph` in a folder of `$fpath`.
    static func zsh(_ syntaxes: [CommandSyntax]) -> String {
        var lines = [
            "#compdef objectgraph",
            "# zsh completion for objectgraph: objectgraph completions zsh > \"${fpath[1]}/_objectgraph\"",
            "_objectgraph() {",
            "    local -a commands",
            "    commands=(",
        ]
        for syntax in syntaxes where isPlain(syntax.name) {
            lines.append(
                "        \(zshQuoted(syntax.name + ":" + zshEscaped(syntax.abstract, also: ":")))")
        }
        for option in toolOptions {
            lines.append("        \(zshQuoted(option.name + ":" + option.summary))")
        }
        lines += [
            "    )",
            "    if (( CURRENT == 2 )); then",
            "        _describe 'command' commands",
            "        return",
            "    fi",
            "    case $words[2] in",
        ]
        for syntax in syntaxes where isPlain(syntax.name) {
            var specs: [String] = []
            for option in syntax.options {
                let summary = zshEscaped(option.summary, also: "[]:")
                for name in option.names where isPlain(name) {
                    var spec = "\(name)[\(summary)]"
                    if let value = option.value {
                        let message = zshEscaped(value, also: "[]:()")
                        spec +=
                            option.choices.isEmpty
                            ? ":\(message):_files" : ":\(message):(\(plain(option.choices)))"
                    }
                    specs.append(zshQuoted(spec))
                }
            }
            if !syntax.subcommands.isEmpty {
                specs.append(zshQuoted("1:subcommand:(\(plain(syntax.subcommands)))"))
            }
            specs.append(zshQuoted("*:file:_files"))
            lines.append("        \(syntax.name))")
            lines.append("            _arguments \\")
            lines += specs.dropLast().map { "                \($0) \\" }
            lines.append("                \(specs[specs.count - 1])")
            lines.append("            ;;")
        }
        lines += ["    esac", "}", "_objectgraph \"$@\""]
        return lines.joined(separator: "\n") + "\n"
    }

    /// The fish script: `objectgraph completions fish > ~/.config/fish/completions/objectgraph.fish`.
    static func fish(_ syntaxes: [CommandSyntax]) -> String {
        var lines = [
            "# fish completion for objectgraph: objectgraph completions fish > ~/.config/fish/completions/objectgraph.fish"
        ]
        for option in toolOptions {
            lines.append(
                "complete -c objectgraph -f -n __fish_use_subcommand -l \(option.name.dropFirst(2)) "
                    + "-d \(fishQuoted(option.summary))")
        }
        for syntax in syntaxes where isPlain(syntax.name) {
            lines.append(
                "complete -c objectgraph -f -n __fish_use_subcommand -a \(syntax.name) -d \(fishQuoted(syntax.abstract))"
            )
            let condition = "-n '__fish_seen_subcommand_from \(syntax.name)'"
            if !syntax.subcommands.isEmpty {
                lines.append(
                    "complete -c objectgraph \(condition) -a \(fishQuoted(plain(syntax.subcommands)))"
                )
            }
            for option in syntax.options {
                for name in option.names where isPlain(name) {
                    let flag =
                        name.hasPrefix("--")
                        ? "-l \(name.dropFirst(2))"
                        : name.count == 2 ? "-s \(name.dropFirst())" : "-o \(name.dropFirst())"
                    var line = "complete -c objectgraph \(condition) \(flag)"
                    if option.value != nil {
                        line +=
                            option.choices.isEmpty
                            ? " -r" : " -x -a \(fishQuoted(plain(option.choices)))"
                    }
                    lines.append(line + " -d \(fishQuoted(option.summary))")
                }
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// `text` in zsh single quotes.
    static func zshQuoted(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }

    /// `text` with backslashes and the characters of `also` escaped by a backslash (for
    /// `_arguments` and `_describe` specifications).
    static func zshEscaped(_ text: String, also: String) -> String {
        var result = ""
        for character in text {
            if character == "\\" || also.contains(character) { result.append("\\") }
            result.append(character)
        }
        return result
    }

    /// `text` in fish single quotes (where only `\` and `'` are escaped).
    static func fishQuoted(_ text: String) -> String {
        "'"
            + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(
                of: "'", with: "\\'")
            + "'"
    }
}
