// The Importer example: a generated data set imported on background contexts while the view
// context, on the main actor, shows the counts as their saves merge into it.
//
//     swift run Importer                                  # 20,000 contacts in 4 parts
//     swift run Importer --contacts 100000 --parts 8 --batch 5000
//
// Each part is imported by a `ModelActor` (its own private-queue context), saving in batches;
// the view context merges every save automatically (`automaticallyMergesChangesFromParent`);
// a `performBackgroundTask` checks the parts at the end. Exits 0 when the view context counts
// exactly the contacts generated, 1 otherwise, 2 on a usage error.

import Foundation
import ObjectGraph

@MainActor func run(_ dataSet: DataSet) async throws -> Bool {
    let folder = FileManager.default.temporaryDirectory
        .appendingPathComponent("ObjectGraph-Importer-\(ProcessInfo.processInfo.processIdentifier)")
    defer { try? FileManager.default.removeItem(at: folder) }
    let container = try PersistentContainer(name: "Importer", directory: folder)
    print("Importing \(dataSet.count) contacts in \(dataSet.parts) parts into \(container.name)")

    // The view context: the interface's, on the main actor. It merges every background save;
    // each merge is an objects-did-change listing the contacts it brought in.
    let view = container.viewContext
    view.automaticallyMergesChangesFromParent = true
    var merged = 0
    let observation = view.observe { note in
        guard note.kind == .objectsDidChange, !note.changes.inserted.isEmpty else { return }
        merged += note.changes.inserted.count
        print("view context: merged \(note.changes.inserted.count), shows \(merged)")
    }
    defer { observation.cancel() }

    // The import: one ModelActor per part, all at once.
    let imported = try await withThrowingTaskGroup(of: Int.self) { group in
        for part in 0..<dataSet.parts {
            group.addTask {
                try await ContactImporter(container: container).importPart(part, of: dataSet)
            }
        }
        var total = 0
        for try await saved in group { total += saved }
        return total
    }
    print("Imported \(imported) contacts")

    // Every save handed its merge to the main queue before its importer returned; let the
    // main actor run them (bounded, should one never come).
    var waited = 0
    while merged < dataSet.count && waited < 500 {
        try await Task.sleep(for: .milliseconds(10))
        waited += 1
    }

    // A background task checks each part (Core Data's performBackgroundTask).
    let parts = dataSet.parts
    let perPart = try await container.performBackgroundTask { context in
        try (0..<parts).map { part in
            try context.count(
                for: FetchRequest(
                    entityName: "Contact", predicate: try Predicate(format: "part == %d", part)))
        }
    }
    for (part, count) in perPart.enumerated() {
        print("part \(part + 1): \(count) contacts in the store")
    }

    let count = try view.count(for: FetchRequest(entityName: "Contact"))
    print("view context: \(count) contacts (merged \(merged)); expected \(dataSet.count)")
    return count == dataSet.count && merged == dataSet.count
        && perPart.reduce(0, +) == dataSet.count
}

do {
    let dataSet = try DataSet(arguments: Array(CommandLine.arguments.dropFirst()))
    exit(try await run(dataSet) ? 0 : 1)
} catch let error as UsageError {
    FileHandle.standardError.write(Data("Importer: \(error)\n\(DataSet.usage)\n".utf8))
    exit(2)
} catch {
    FileHandle.standardError.write(Data("Importer example failed: \(error)\n".utf8))
    exit(1)
}
