// Lists the public symbols that have no documentation comment, from the symbol graphs that
// `swift package dump-symbol-graph` writes; exits 1 when there is one, 2 on unreadable input.
//
//     swift Scripts/undocumented-symbols.swift SYMBOL-GRAPH-DIR MODULE...
//
// A symbol counts when it is `public` or `open` and its module is one of MODULE (its own
// `MODULE.symbols.json` and the `MODULE@Other.symbols.json` files of its extensions to other
// modules' types). It is documented when its doc comment has a line that is not blank. The
// symbol graphs are made without synthesized members (`--skip-synthesized-members`: default
// implementations a type gets from a protocol, which are not written in this package), and a
// member that satisfies a protocol requirement or overrides a superclass member without a
// comment of its own carries the requirement's or overridden member's comment (inherited
// documentation, as DocC shows it): it counts as documented when that comment exists.
import Foundation

let arguments = CommandLine.arguments.dropFirst()
guard let directory = arguments.first, arguments.count >= 2 else {
    FileHandle.standardError.write(
        Data("usage: undocumented-symbols.swift SYMBOL-GRAPH-DIR MODULE...\n".utf8))
    exit(2)
}
let modules = Set(arguments.dropFirst())
let root = FileManager.default.currentDirectoryPath + "/"

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("undocumented-symbols: \(message)\n".utf8))
    exit(2)
}

guard let files = try? FileManager.default.contentsOfDirectory(atPath: directory) else {
    fail("cannot list \(directory)")
}
var found: [String] = []
var counted = 0
var seen = Set<String>()
for file in files.sorted() where file.hasSuffix(".symbols.json") {
    let stem = String(file.dropLast(".symbols.json".count))
    let module = String(stem.split(separator: "@", maxSplits: 1)[0])
    guard modules.contains(module) else { continue }
    let path = directory + "/" + file
    guard let data = FileManager.default.contents(atPath: path),
        let graph = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any],
        let symbols = graph["symbols"] as? [[String: Any]]
    else { fail("cannot read the symbol graph \(path)") }
    for symbol in symbols {
        let access = symbol["accessLevel"] as? String
        guard access == "public" || access == "open" else { continue }
        let identifier = (symbol["identifier"] as? [String: Any])?["precise"] as? String ?? ""
        guard seen.insert(identifier).inserted else { continue }
        counted += 1
        let lines = ((symbol["docComment"] as? [String: Any])?["lines"] as? [[String: Any]]) ?? []
        let documented = lines.contains {
            !(($0["text"] as? String) ?? "").trimmingCharacters(in: .whitespaces).isEmpty
        }
        if documented { continue }
        let names = (symbol["pathComponents"] as? [String]) ?? []
        let kind = ((symbol["kind"] as? [String: Any])?["displayName"] as? String) ?? "symbol"
        var place = module
        if let location = symbol["location"] as? [String: Any],
            let uri = location["uri"] as? String,
            let position = location["position"] as? [String: Any],
            let line = position["line"] as? Int
        {
            var file = URL(string: uri)?.path ?? uri
            if file.hasPrefix(root) { file.removeFirst(root.count) }
            place = "\(file):\(line + 1)"
        }
        found.append(
            "\(place): \(kind) \(([module] + names).joined(separator: ".")) has no doc comment")
    }
}
if counted == 0 { fail("no public symbol of \(modules.sorted()) in \(directory)") }
for line in found.sorted() { print(line) }
if !found.isEmpty {
    print("\(found.count) of \(counted) public symbols have no documentation comment")
    exit(1)
}
print("all \(counted) public symbols of \(modules.sorted().joined(separator: ", ")) are documented")
