import Foundation
import ObjectGraph

/// The `live_update` measurement: a fetched-results controller holding every person sorted
/// by name (n results), one person renamed so that it moves, and the time the controller
/// takes to bring its results up to date (the context's `processPendingChanges()`, which the
/// save that follows would call; the controller is its only observer) next to a plain
/// refetch of the same request in the same context. ObjectGraph alone; target ratio ≤ 0.1.
///
/// Two child operations, each on the store an untimed `insert` child left: `live_update`
/// (seconds: the controller's update) and `live_refetch` (seconds: `fetch` of the request
/// after the same change and save). Both make the controller and change the person untimed.
enum LiveUpdate {
    /// The child operations.
    static let operations = ["live_update", "live_refetch"]
    /// The target: update time over refetch time.
    static let target = 0.1

    /// The request: every person, by name.
    static func request() -> FetchRequest<ManagedObject> {
        FetchRequest(entityName: "Person", sortDescriptors: [SortDescriptor("name")])
    }

    /// Runs `operation` on the store `coordinator` has open: count = the results, checksum =
    /// where the renamed person went.
    static func run(_ operation: String, coordinator: StoreCoordinator) throws
        -> SideResult
    {
        let context = ManagedContext(coordinator: coordinator)
        let controller = try FetchedResultsController(context: context, fetchRequest: request())
        try controller.performFetch()
        let count = controller.fetchedObjects?.count ?? 0
        guard count > 0 else { throw BenchError.failed("live_update: the store has no person") }
        var moved: ResultsDifference?
        controller.onChange = { moved = $0 }
        let person = try controller.object(at: ResultsIndexPath(row: count / 2, section: 0))
        // Renamed to sort first (before the names earlier runs gave): the controller moves it
        // from the middle to the top.
        let later = Int64(Date().timeIntervalSince1970 * 1_000_000)
        try person.set("A \(String(format: "%019lld", Int64.max - later))", for: "name")
        var result = SideResult(seconds: 0, checksum: 0, count: count)
        let start = Clock.now()
        let startCPU = Clock.cpu()
        if operation == "live_update" { context.processPendingChanges() }
        if operation == "live_update" {
            result.seconds = Clock.now() - start
            result.cpuSeconds = Clock.cpu() - startCPU
        }
        try context.save()
        if operation == "live_refetch" {
            let start = Clock.now()
            let startCPU = Clock.cpu()
            let objects = try context.fetch(request())
            result.seconds = Clock.now() - start
            result.cpuSeconds = Clock.cpu() - startCPU
            guard objects.count == count, objects.first === person else {
                throw BenchError.failed("live_refetch: the refetch does not start with the person")
            }
        } else {
            guard let move = moved?.movedRows.first,
                move.to == ResultsIndexPath(row: 0, section: 0),
                controller.fullFetchCount == 1
            else {
                throw BenchError.failed("live_update: the controller did not report the move")
            }
            result.checksum = Int64(move.from.row)
        }
        withExtendedLifetime(controller) {}
        return result
    }
}

extension BenchmarkRun {
    /// Measures `live_update` on a store of n people made by an untimed `insert` child: the
    /// medians of the controller's update and of the refetch, and their ratio.
    func measureLiveUpdate(root: URL) throws {
        let folder = root.appendingPathComponent("live")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        _ = try launcher.run(
            side: .objectGraph, operation: "insert", n: options.n, directory: folder,
            queries: options.queries, budget: options.queryBudget)
        var updates: [SideResult] = []
        var refetches: [SideResult] = []
        for _ in 0..<options.repetitions {
            for operation in LiveUpdate.operations {
                let result = try launcher.run(
                    side: .objectGraph, operation: operation, n: options.n, directory: folder,
                    queries: options.queries, budget: options.queryBudget)
                if operation == "live_update" {
                    updates.append(result)
                } else {
                    refetches.append(result)
                }
            }
        }
        guard let update = SideResult.median(of: updates),
            let refetch = SideResult.median(of: refetches)
        else { throw BenchError.failed("live_update: no run") }
        let ratio = refetch.seconds > 0 ? update.seconds / refetch.seconds : 0
        let cpuRatio = refetch.cpuSeconds > 0 ? update.cpuSeconds / refetch.cpuSeconds : 0
        if options.json {
            print(
                "{\"op\": \"live_update\", \"n\": \(update.count), "
                    + "\"objectgraph_s\": \(update.seconds), \"refetch_s\": \(refetch.seconds), "
                    + "\"ratio\": \(ratio), \"cpu_ratio\": \(cpuRatio), "
                    + "\"peak_rss_kb\": \(update.peakRSSKB)}")
        } else {
            print(
                String(
                    format:
                        "\nlive_update: a fetched-results controller of %d people by name, one"
                        + " renamed to move from the middle to the top: update %.6f s, refetch of"
                        + " the same request %.4f s, ratio %.4f (target ≤ %.1f %@), cpu ratio %.4f",
                    update.count, update.seconds, refetch.seconds, ratio, LiveUpdate.target,
                    ratio <= LiveUpdate.target ? "ok" : "OVER", cpuRatio))
        }
    }
}
