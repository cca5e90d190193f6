import ObjectGraph

/// Imports one part of the data set on a private-queue context of its own (SwiftData's
/// `ModelActor` pattern): the actor's methods run on the context's queue, so they use
/// `context` directly, and callers `await` them from anywhere.
actor ContactImporter: ModelActor {
    nonisolated let modelExecutor: ContextExecutor

    init(container: PersistentContainer) {
        modelExecutor = ContextExecutor(container: container)
    }

    /// Inserts the contacts of `part`, saving every `dataSet.batchSize` and printing progress;
    /// returns how many it saved.
    func importPart(_ part: Int, of dataSet: DataSet) throws -> Int {
        context.name = "import part \(part + 1)"
        let indexes = dataSet.indexes(ofPart: part)
        var saved = 0
        var next = indexes.lowerBound
        while next < indexes.upperBound {
            let batch = next..<min(next + dataSet.batchSize, indexes.upperBound)
            for index in batch {
                let values = dataSet.contact(index)
                let contact = try context.insert("Contact")
                try contact.set(values.id, for: "id")
                try contact.set(values.name, for: "name")
                try contact.set(values.email, for: "email")
                try contact.set(values.score, for: "score")
                try contact.set(Int16(part), for: "part")
            }
            // The save reaches the view context as a merge (it merges changes automatically).
            try context.save()
            saved += batch.count
            next = batch.upperBound
            print("  part \(part + 1): saved \(saved) of \(indexes.count)")
        }
        return saved
    }
}
