import Foundation
import ObjectGraph

/// `objectgraph validate [--format text|json] [--warnings-as-errors] PATH...`: loads each model
/// and prints every diagnostic of `EntityModel.validate()`.
struct ValidateCommand: Command {
    static let name = "validate"
    static let abstract = "Check Core Data model files and print every diagnostic"
    static let help = """
        OVERVIEW: Check Core Data model files and print every diagnostic.

        Each model is loaded and validated; all diagnostics are printed at once, compiler style:
          path:line:column: error: message [rule-id]
        followed by one summary line per model:
          School.xcdatamodeld: 0 errors, 2 warnings
        Rule ids and what they check: Docs/ValidationRules.md.

        USAGE: objectgraph validate [--format text|json] [--warnings-as-errors] [--all-versions]
                                    <path> ...

        ARGUMENTS:
          <path>                  A .xcdatamodeld bundle (its current version), a .xcdatamodel
                                  folder, or a contents file.

        OPTIONS:
          --format <format>       text (default) or json.
          --warnings-as-errors    Report warnings as errors (and exit 1 when there are any).
          --all-versions          For a .xcdatamodeld bundle, check every version, each
                                  reported as <bundle>/<version>.xcdatamodel.
          -h, --help              Show this help.

        JSON FORMAT (--format json): one object,
          {"models": [{"path", "readable", "loadError", "errors", "warnings",
                       "diagnostics": [{"path", "severity", "ruleID", "message", "line",
                                        "column", "entity", "property"}]}],
           "errors", "warnings", "unreadable"}
          "loadError" is null for a readable model, else {"kind", "message", "path", "line",
          "column"}. Unknown values (line, column, entity, property) are null; a diagnostic's
          "path" is the file it points into (a bundle's contents file).

        EXIT STATUS:
          0  No errors (warnings allowed unless --warnings-as-errors).
          1  A model has errors.
          2  Usage error, or a file cannot be read or is not a well-formed model (the message
             says path:line:column).

        """

    /// The output formats.
    enum Format: String {
        case text, json
    }

    /// The parsed command line.
    struct Options {
        var format = Format.text
        var warningsAsErrors = false
        var allVersions = false
        var paths: [String] = []
    }

    static func run(_ arguments: [String], io: CommandIO) -> Int32 {
        let options: Options
        switch parse(arguments) {
        case .success(let parsed): options = parsed
        case .failure(let problem): return usageError(problem.message, io: io)
        }
        let results = options.paths.flatMap { path in
            targets(for: path, allVersions: options.allVersions).map {
                check($0, warningsAsErrors: options.warningsAsErrors)
            }
        }
        switch options.format {
        case .text: writeText(results, io: io)
        case .json: writeJSON(results, io: io)
        }
        if results.contains(where: { $0.loadError != nil }) { return ExitStatus.usage }
        if results.contains(where: { $0.errorCount > 0 }) { return ExitStatus.finding }
        return ExitStatus.success
    }

    /// A usage problem, in one line.
    struct UsageProblem: Error {
        let message: String
    }

    static func parse(_ arguments: [String]) -> Result<Options, UsageProblem> {
        var options = Options()
        var index = 0
        var onlyPaths = false
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if onlyPaths || !argument.hasPrefix("-") || argument == "-" {
                options.paths.append(argument)
                continue
            }
            var value: String? = nil
            var flag = argument
            if let equals = argument.firstIndex(of: "=") {
                flag = String(argument[..<equals])
                value = String(argument[argument.index(after: equals)...])
            }
            switch flag {
            case "--":
                onlyPaths = true
            case "--warnings-as-errors":
                guard value == nil else {
                    return .failure(UsageProblem(message: "--warnings-as-errors takes no value"))
                }
                options.warningsAsErrors = true
            case "--all-versions":
                guard value == nil else {
                    return .failure(UsageProblem(message: "--all-versions takes no value"))
                }
                options.allVersions = true
            case "--format":
                if value == nil, index < arguments.count {
                    value = arguments[index]
                    index += 1
                }
                guard let value else {
                    return .failure(UsageProblem(message: "--format needs a value: text or json"))
                }
                guard let format = Format(rawValue: value) else {
                    return .failure(
                        UsageProblem(message: "unknown format '\(value)' (use text or json)"))
                }
                options.format = format
            default:
                return .failure(UsageProblem(message: "unknown option '\(argument)'"))
            }
        }
        if options.paths.isEmpty {
            return .failure(UsageProblem(message: "missing model path"))
        }
        return .success(options)
    }

    // MARK: Checking

    /// What one path gave: its diagnostics, or why it could not be read.
    struct ModelCheck {
        let path: String
        let diagnostics: [Diagnostic]
        let loadError: ModelError?

        var errorCount: Int { diagnostics.filter { $0.severity == .error }.count }
        var warningCount: Int { diagnostics.filter { $0.severity == .warning }.count }
    }

    /// The paths to check for one argument: the path itself or, with `--all-versions` on a
    /// bundle, each version's `.xcdatamodel` folder.
    static func targets(for path: String, allVersions: Bool) -> [String] {
        guard allVersions, path.hasSuffix(".xcdatamodeld") || path.hasSuffix(".xcdatamodeld/"),
            let bundle = try? ModelBundle(contentsOf: URL(fileURLWithPath: path))
        else { return [path] }  // a bundle that cannot be opened says why when it is loaded
        let folder = path.hasSuffix("/") ? String(path.dropLast()) : path
        return bundle.versionNames.map { "\(folder)/\($0).xcdatamodel" }
    }

    static func check(_ path: String, warningsAsErrors: Bool) -> ModelCheck {
        let model: EntityModel
        do {
            model = try EntityModel(contentsOf: URL(fileURLWithPath: path))
        } catch let error as ModelError {
            var located = error
            if located.location == nil {
                located.location = SourceLocation(file: path, line: 0, column: 0)
            }
            return ModelCheck(path: path, diagnostics: [], loadError: located)
        } catch {
            let wrapped = ModelError(.unreadable, "\(error)", file: path)
            return ModelCheck(path: path, diagnostics: [], loadError: wrapped)
        }
        var diagnostics = model.validate()
        if warningsAsErrors {
            for index in diagnostics.indices { diagnostics[index].severity = .error }
        }
        return ModelCheck(path: path, diagnostics: diagnostics, loadError: nil)
    }

    // MARK: Text

    static func writeText(_ results: [ModelCheck], io: CommandIO) {
        for result in results {
            if let error = result.loadError {
                io.writeError("\(error)\n")
                continue
            }
            var text = ""
            for diagnostic in result.diagnostics {
                text += "\(place(of: diagnostic, in: result.path)): "
                text += "\(diagnostic.severity.rawValue): \(diagnostic.message) "
                text += "[\(diagnostic.ruleID)]\n"
            }
            text += "\(result.path): \(counted(result.errorCount, "error")), "
            text += "\(counted(result.warningCount, "warning"))\n"
            io.write(text)
        }
    }

    /// `file:line:column` of a diagnostic, or the model's path when it has no location.
    static func place(of diagnostic: Diagnostic, in path: String) -> String {
        guard let location = diagnostic.location else { return path }
        let file = location.file ?? path
        return location.line > 0 ? "\(file):\(location.line):\(location.column)" : file
    }

    static func counted(_ count: Int, _ noun: String) -> String {
        "\(count) \(noun)\(count == 1 ? "" : "s")"
    }

    // MARK: JSON

    static func writeJSON(_ results: [ModelCheck], io: CommandIO) {
        let report = ValidationReport(results)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        do {
            let data = try encoder.encode(report)
            io.write(String(decoding: data, as: UTF8.self) + "\n")
        } catch {
            io.writeError("error: cannot encode the report: \(error)\n")
        }
    }
}

/// The JSON form of a `validate` run (documented in ``ValidateCommand/help``). Absent values are
/// written as `null`, so every key is always there.
struct ValidationReport: Encodable {
    /// One diagnostic.
    struct Item: Encodable {
        let path: String
        let severity: String
        let ruleID: String
        let message: String
        let line: Int?
        let column: Int?
        let entity: String?
        let property: String?

        enum CodingKeys: String, CodingKey {
            case path, severity, ruleID, message, line, column, entity, property
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(path, forKey: .path)
            try container.encode(severity, forKey: .severity)
            try container.encode(ruleID, forKey: .ruleID)
            try container.encode(message, forKey: .message)
            try container.encode(line, forKey: .line)
            try container.encode(column, forKey: .column)
            try container.encode(entity, forKey: .entity)
            try container.encode(property, forKey: .property)
        }
    }

    /// Why a model could not be read.
    struct LoadFailure: Encodable {
        let kind: String
        let message: String
        let path: String?
        let line: Int?
        let column: Int?

        enum CodingKeys: String, CodingKey {
            case kind, message, path, line, column
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(kind, forKey: .kind)
            try container.encode(message, forKey: .message)
            try container.encode(path, forKey: .path)
            try container.encode(line, forKey: .line)
            try container.encode(column, forKey: .column)
        }
    }

    /// One model path.
    struct Model: Encodable {
        let path: String
        let readable: Bool
        let loadError: LoadFailure?
        let errors: Int
        let warnings: Int
        let diagnostics: [Item]

        enum CodingKeys: String, CodingKey {
            case path, readable, loadError, errors, warnings, diagnostics
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(path, forKey: .path)
            try container.encode(readable, forKey: .readable)
            try container.encode(loadError, forKey: .loadError)
            try container.encode(errors, forKey: .errors)
            try container.encode(warnings, forKey: .warnings)
            try container.encode(diagnostics, forKey: .diagnostics)
        }
    }

    let models: [Model]
    let errors: Int
    let warnings: Int
    let unreadable: Int

    init(_ checks: [ValidateCommand.ModelCheck]) {
        models = checks.map { check in
            let failure = check.loadError.map { error in
                let known = error.location.map { $0.line > 0 } ?? false
                return LoadFailure(
                    kind: error.kind.rawValue, message: error.message,
                    path: error.location?.file ?? check.path,
                    line: known ? error.location?.line : nil,
                    column: known ? error.location?.column : nil)
            }
            let items = check.diagnostics.map { diagnostic in
                let known = diagnostic.location.map { $0.line > 0 } ?? false
                return Item(
                    path: diagnostic.location?.file ?? check.path,
                    severity: diagnostic.severity.rawValue, ruleID: diagnostic.ruleID,
                    message: diagnostic.message,
                    line: known ? diagnostic.location?.line : nil,
                    column: known ? diagnostic.location?.column : nil, entity: diagnostic.entity,
                    property: diagnostic.property)
            }
            return Model(
                path: check.path, readable: failure == nil, loadError: failure,
                errors: check.errorCount, warnings: check.warningCount, diagnostics: items)
        }
        errors = checks.reduce(0) { $0 + $1.errorCount }
        warnings = checks.reduce(0) { $0 + $1.warningCount }
        unreadable = checks.filter { $0.loadError != nil }.count
    }
}
