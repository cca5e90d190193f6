import Foundation
import ObjectGraph

/// `objectgraph _stress-save` (hidden, for crash tests): saves a large graph again and again so a
/// test can kill the process at random moments and check the store holds one whole generation.
///
/// The model must have an entity `Person` (`name` String, `generation` Integer 64) and an entity
/// `Team` (`name` String, `members` to-many to Person, inverse `team`). Generation `g` of the graph has
/// `people + g` people and every person's `generation` and every team's `name` say `g`.
struct StressSaveCommand: Command {
    static let name = "_stress-save"
    static let abstract = "Save a large graph repeatedly (crash tests; not listed)"
    static let help = """
        OVERVIEW: Save a large graph repeatedly, for crash tests (hidden command).

        Creates generation 0 (PEOPLE people in teams of 100) when the store is empty, then
        each round sets every person's generation and every team's name to the next
        generation, adds one person, saves, and prints "generation N" (flushed) after the save
        returns.

        USAGE: objectgraph _stress-save --type <type> --model <model> <file> [--rounds N]
                                        [--people N] [--padding N]

        OPTIONS:
          --type <type>       sqlite, xml or binary.
          --model <model>     A model with Person(name, generation, team) and
                              Team(name, members).
          --rounds N          How many saves after the first (default 1000).
          --people N          The size of generation 0 (default 20000).
          --padding N         Extra characters in each name of generation 0, to make the
                              file (and each write) larger (default 0).

        """

    static func run(_ arguments: [String], io: CommandIO) -> Int32 {
        var options: [String: String] = [:]
        var paths: [String] = []
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            guard argument.hasPrefix("--") else {
                paths.append(argument)
                continue
            }
            guard ["--type", "--model", "--rounds", "--people", "--padding"].contains(argument),
                index < arguments.count
            else {
                return usageError("unknown option or missing value '\(argument)'", io: io)
            }
            options[argument] = arguments[index]
            index += 1
        }
        guard let typeName = options["--type"], let type = StoreFileKind.type(named: typeName),
            let modelPath = options["--model"], paths.count == 1,
            let rounds = Int(options["--rounds"] ?? "1000"), rounds >= 0,
            let people = Int(options["--people"] ?? "20000"), people > 0,
            let padding = Int(options["--padding"] ?? "0"), padding >= 0
        else {
            return usageError(
                "expected --type, --model, one file, numeric --rounds/--people", io: io)
        }
        do {
            let model = try EntityModel(contentsOf: URL(fileURLWithPath: modelPath))
            let coordinator = StoreCoordinator(model: model)
            try coordinator.addStore(type: type, at: URL(fileURLWithPath: paths[0]))
            let context = ManagedContext(coordinator: coordinator)
            var persons = try context.fetch(FetchRequest(entityName: "Person"))
            var teams = try context.fetch(FetchRequest(entityName: "Team"))
            var generation: Int64 = 0
            if persons.isEmpty {
                for _ in 0..<max(1, people / 100) {
                    let team = try context.insert("Team")
                    try team.set("g0", for: "name")
                    teams.append(team)
                }
                for number in 0..<people {
                    let person = try context.insert("Person")
                    let name = "person \(number) " + String(repeating: "x", count: padding)
                    try person.set(name, for: "name")
                    try person.set(Int64(0), for: "generation")
                    try person.setObject(teams[number % teams.count], for: "team")
                    persons.append(person)
                }
                try context.save()
            } else {
                generation = persons.compactMap { $0["generation"] as Int64? }.max() ?? 0
            }
            io.write("generation \(generation)\n")
            io.flush()
            for _ in 0..<rounds {
                generation += 1
                for person in persons { try person.set(generation, for: "generation") }
                for team in teams { try team.set("g\(generation)", for: "name") }
                let person = try context.insert("Person")
                try person.set("person \(persons.count)", for: "name")
                try person.set(generation, for: "generation")
                if let team = teams.first { try person.setObject(team, for: "team") }
                persons.append(person)
                try context.save()
                io.write("generation \(generation)\n")
                io.flush()
            }
            return ExitStatus.success
        } catch {
            io.writeError("error: \(error)\n")
            return ExitStatus.usage
        }
    }
}
