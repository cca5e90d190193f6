import Foundation
import Testing

@testable import ObjectGraph

/// The debug detector: a queue-bound context used outside its queue is reported, naming the
/// context, its kind, the operation and the thread. Serialized: the tests swap the global
/// handler (and each records only its own context's violations, by name).
@Suite("Concurrency debugging", .serialized)
struct ConcurrencyDetectorTests {
    /// Runs `body` with a handler recording the violations on contexts named `name`.
    static func recording(_ name: String, _ body: () throws -> Void) rethrows
        -> [ConcurrencyViolation]
    {
        let recorded = Locked<[ConcurrencyViolation]>([])
        let previous = ConcurrencyDebugging.violationHandler
        ConcurrencyDebugging.violationHandler = { violation in
            if violation.contextName == name { recorded.withLock { $0.append(violation) } }
        }
        defer { ConcurrencyDebugging.violationHandler = previous }
        try body()
        return recorded.withLock { $0 }
    }

    /// Runs `body` on a new thread (not a queue of any context) and waits for it.
    static func onAnotherThread(_ body: @escaping @Sendable () -> Void) {
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            Thread.current.name = "intruder"
            body()
            done.signal()
        }
        thread.start()
        done.wait()
    }

    #if DEBUG
        @Test("a private-queue context reached from another thread is reported, per operation")
        func privateQueueFromAnotherThread() throws {
            let fixture = try ConcurrencyFixture()
            defer { fixture.remove() }
            let background = BackgroundContext(coordinator: fixture.coordinator)
            nonisolated(unsafe) var leaked: ManagedContext?
            nonisolated(unsafe) var club: ManagedObject?
            nonisolated(unsafe) var intruder = ""
            background.performAndWait { context in
                context.name = "leaky"
                club = try? context.insert("Club")
                leaked = context
            }
            let violations = Self.recording("leaky") {
                Self.onAnotherThread {
                    intruder = ConcurrencyDebugging.currentThreadDescription()
                    guard let context = leaked, let club else { return }
                    _ = try? context.insert("Club")
                    _ = try? ConcurrencyFixture.clubs(in: context)
                    _ = club["title"] as String?
                    try? club.set("Chess", for: "title")
                    context.delete(club)
                    try? context.save()
                }
            }
            // Each entry point reports (a call passing several, as a count that fetches, reports
            // each time), in the order they were reached.
            var operations: [String] = []
            for violation in violations where !operations.contains(violation.operation) {
                operations.append(violation.operation)
            }
            #expect(
                operations == [
                    "insert", "fetch", "property read", "property write", "delete", "save",
                    "processPendingChanges",
                ])
            let first = try #require(violations.first)
            #expect(first.concurrencyType == .privateQueue)
            #expect(first.thread == intruder)
            #expect(first.thread != ConcurrencyDebugging.currentThreadDescription())
            #expect(first.description.contains("insert on private-queue context \"leaky\""))
            #expect(first.description.contains("from thread \(first.thread)"))
            leaked = nil
            club = nil
        }

        @Test("the same calls inside the queue report nothing")
        func insideTheQueueIsQuiet() throws {
            let fixture = try ConcurrencyFixture()
            defer { fixture.remove() }
            let background = BackgroundContext(coordinator: fixture.coordinator)
            let violations = try Self.recording("quiet") {
                try background.performAndWait { context in
                    context.name = "quiet"
                    let club = try context.insert("Club")
                    try club.set("Chess", for: "title")
                    _ = club["title"] as String?
                    _ = try ConcurrencyFixture.clubs(in: context)
                    try context.save()
                    context.delete(club)
                    try context.save()
                }
            }
            #expect(violations.isEmpty)
        }

        @Test("a main-queue context used off the main queue is reported")
        func mainQueueFromAnotherThread() async throws {
            let fixture = try ConcurrencyFixture()
            defer { fixture.remove() }
            let box = await MainBox.made(coordinator: fixture.coordinator, name: "main-leak")
            let violations = Self.recording("main-leak") {
                Self.onAnotherThread {
                    _ = try? box.context.insert("Club")
                    _ = box.context.registeredObject(
                        for: ObjectID(
                            entityName: "Club", storeIdentifier: "none", key: .permanent(1)))
                }
            }
            #expect(violations.map(\.operation) == ["insert", "object lookup"])
            #expect(violations.first?.concurrencyType == .mainQueue)
        }

        @Test("the default handler prints the violation and stops the program")
        func defaultHandlerStops() async throws {
            let result = try await #require(
                processExitsWith: .failure, observing: [\.standardErrorContent]
            ) {
                let coordinator = StoreCoordinator(model: TestModels.league())
                _ = try? coordinator.addStore(type: .inMemory)
                let context = ManagedContext(
                    coordinator: coordinator, concurrencyType: .privateQueue)
                context.name = "stopped"
                _ = try? context.insert("Club")  // outside its queue
            }
            let printed = String(decoding: result.standardErrorContent, as: UTF8.self)
            #expect(printed.contains("insert on private-queue context \"stopped\""))
        }

        @Test("a remote save merged from another thread enters a main-queue context's queue")
        func remoteMergeEntersTheQueue() async throws {
            let fixture = try ConcurrencyFixture()
            defer { fixture.remove() }
            let box = await MainBox.made(coordinator: fixture.coordinator, name: "remote-merge")
            let writer = BackgroundContext(coordinator: fixture.coordinator)
            let id = try await writer.perform { context in
                let club = try context.insert("Club")
                try context.save()
                return club.objectID
            }
            nonisolated(unsafe) var merged: Error?
            let violations = Self.recording("remote-merge") {
                Self.onAnotherThread {
                    do {
                        try ManagedContext.mergeChanges(
                            fromRemoteContextSave: ContextChange(deleted: [id]), into: [box.context]
                        )
                    } catch {
                        merged = error
                    }
                }
            }
            #expect(merged == nil)
            #expect(violations.isEmpty)
        }

        @Test("a confined context is not checked at run time (the compiler checks it)")
        func confinedIsNotChecked() throws {
            let fixture = try ConcurrencyFixture()
            defer { fixture.remove() }
            nonisolated(unsafe) let context = ManagedContext(coordinator: fixture.coordinator)
            context.name = "confined"
            let violations = Self.recording("confined") {
                Self.onAnotherThread { _ = try? context.insert("Club") }
            }
            #expect(violations.isEmpty)
        }
    #endif
}
