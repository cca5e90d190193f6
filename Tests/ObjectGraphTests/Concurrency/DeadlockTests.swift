import Foundation
import Testing

@testable import ObjectGraph

/// Cycles of synchronous entries between contexts on different threads: each would deadlock
/// with plain locks, and each must finish. Every scenario runs under a watchdog, so a
/// regression fails within `DeadlockWatch.seconds` instead of hanging the run.
@Suite("Deadlock freedom")
struct DeadlockTests {
    @Test("main calls a private child's performAndWait while its perform block reads through main")
    @MainActor func mainAndChildOfViewContext() async throws {
        let folder = try TestSupport.makeTemporaryFolder()
        defer { TestSupport.removeTemporaryFolder(folder) }
        let container = try ConcurrencyFixture.container(in: folder)
        let view = container.viewContext
        try ConcurrencyFixture.insertClubs(2, prefix: "v", into: view)
        let child = BackgroundContext(viewContextOf: container)
        let rounds = 60
        let saved = QueueGuarded(0)
        try await DeadlockWatch.onMainActor("main ↔ child of the view context") {
            for round in 0..<rounds {
                let holding = DispatchSemaphore(value: 0)
                child.perform { context in
                    holding.signal()
                    // Holding the child's queue, read (and on odd rounds save) through the
                    // view context, on the main queue.
                    _ = try? ConcurrencyFixture.clubs(in: context)
                    if round % 2 == 1 {
                        try? ConcurrencyFixture.insertClubs(1, prefix: "c\(round)-", into: context)
                        try? context.save()
                        saved.value += 1
                    }
                }
                holding.wait()
                // The main thread asks for the child's queue while the block holds it and
                // waits for the main queue.
                let seen = try child.performAndWait { try ConcurrencyFixture.clubs(in: $0) }
                #expect(seen >= 2)
            }
        }
        let inserted = child.performAndWait { _ in saved.value }
        #expect(inserted == rounds / 2)
        #expect(try ConcurrencyFixture.clubs(in: view) == 2 + rounds / 2)
    }

    @Test("a parent and its child entered from each other's blocks on two threads")
    func parentAndChildEnterEachOther() async throws {
        let fixture = try ConcurrencyFixture()
        defer { fixture.remove() }
        let parent = BackgroundContext(coordinator: fixture.coordinator)
        let child = BackgroundContext(parent: parent)
        let rounds = 150
        let barrier = ThreadBarrier(parties: 2)
        let finished = await DeadlockWatch.onThreads(2) { thread in
            for _ in 0..<rounds {
                if thread == 0 {
                    // Inside the parent, asking for the child (which reads through the parent).
                    parent.performAndWait { _ in
                        barrier.arrive()
                        _ = child.performAndWait { try? ConcurrencyFixture.clubs(in: $0) }
                    }
                } else {
                    // Inside the child, asking for the parent (a save into it).
                    child.performAndWait { context in
                        barrier.arrive()
                        try? ConcurrencyFixture.insertClubs(1, prefix: "c", into: context)
                        try? context.save()
                    }
                }
                barrier.arrive()  // both rounds over, outside every context
            }
        }
        #expect(finished, "deadlock: parent and child entered from each other's blocks")
        guard finished else { return }
        let counts = try parent.performAndWait { context in
            (try ConcurrencyFixture.clubs(in: context), context.insertedObjects.count)
        }
        #expect(counts == (rounds, rounds))
    }

    @Test("three contexts entered in a cycle A → B → C → A from three threads")
    func threeCycle() async throws {
        let fixture = try ConcurrencyFixture()
        defer { fixture.remove() }
        let contexts = (0..<3).map { _ in BackgroundContext(coordinator: fixture.coordinator) }
        let rounds = 60
        let barrier = ThreadBarrier(parties: 3)
        let finished = await DeadlockWatch.onThreads(3) { thread in
            for round in 0..<rounds {
                contexts[thread].performAndWait { outer in
                    barrier.arrive()
                    contexts[(thread + 1) % 3].performAndWait { inner in
                        try? ConcurrencyFixture.insertClubs(
                            1, prefix: "t\(thread)-\(round)-", into: inner)
                        try? inner.save()
                    }
                    _ = try? ConcurrencyFixture.clubs(in: outer)
                }
                barrier.arrive()  // every round over, outside every context
            }
        }
        #expect(finished, "deadlock: A → B → C → A")
        guard finished else { return }
        let stored = try BackgroundContext(coordinator: fixture.coordinator).performAndWait {
            try ConcurrencyFixture.clubs(in: $0)
        }
        #expect(stored == 3 * rounds)
    }

    @Test("a parent and two children saving into each other from several threads")
    func parentChildStress() async throws {
        let fixture = try ConcurrencyFixture()
        defer { fixture.remove() }
        let parent = BackgroundContext(coordinator: fixture.coordinator)
        let children = [BackgroundContext(parent: parent), BackgroundContext(parent: parent)]
        for child in children {
            child.performAndWait { $0.automaticallyMergesChangesFromParent = true }
        }
        let threads = 4
        let rounds = 40
        let queued = DispatchGroup()
        let finished = await DeadlockWatch.onThreads(threads) { thread in
            for round in 0..<rounds {
                let child = children[(thread + round) % 2]
                let prefix = "t\(thread)-\(round)-"
                switch (thread + round) % 3 {
                case 0:
                    // Parent, then child: the child saves into the parent, the parent to the store.
                    parent.performAndWait { context in
                        child.performAndWait { inner in
                            _ = try? ConcurrencyFixture.clubs(in: inner)
                            try? ConcurrencyFixture.insertClubs(1, prefix: prefix, into: inner)
                            try? inner.save()
                        }
                        try? context.save()
                    }
                case 1:
                    // Child, then parent.
                    child.performAndWait { inner in
                        try? ConcurrencyFixture.insertClubs(1, prefix: prefix, into: inner)
                        try? inner.save()
                        parent.performAndWait { context in
                            _ = try? ConcurrencyFixture.clubs(in: context)
                            try? context.save()
                        }
                    }
                default:
                    queued.enter()
                    child.perform { inner in
                        try? ConcurrencyFixture.insertClubs(1, prefix: prefix, into: inner)
                        try? inner.save()
                        queued.leave()
                    }
                }
            }
        }
        #expect(finished, "deadlock: parent and children saving into each other")
        guard finished, await DeadlockWatch.drains(queued) else { return }
        try parent.performAndWait { try $0.save() }
        let stored = try BackgroundContext(coordinator: fixture.coordinator).performAndWait {
            try ConcurrencyFixture.clubs(in: $0)
        }
        #expect(stored == threads * rounds)
    }

    @Test("a ModelActor's method entering a context whose block enters the actor's context")
    func modelActorInCycle() async throws {
        let folder = try TestSupport.makeTemporaryFolder()
        defer { TestSupport.removeTemporaryFolder(folder) }
        let container = try ConcurrencyFixture.container(in: folder)
        let actor = CycleEnterer(container: container)
        let other = container.newBackgroundContext()
        let rounds = 40
        let barrier = ThreadBarrier(parties: 2)
        let running = DispatchGroup()
        running.enter()
        Task.detached {
            for _ in 0..<rounds {
                await actor.enter(other, after: barrier)
                barrier.arrive()  // both rounds over, outside every context
            }
            running.leave()
        }
        let threads = await DeadlockWatch.onThreads(1) { _ in
            for _ in 0..<rounds {
                other.performAndWait { _ in
                    barrier.arrive()
                    actor.modelExecutor.backgroundContext.performAndWait { context in
                        try? ConcurrencyFixture.insertClubs(1, prefix: "o", into: context)
                        try? context.save()
                    }
                }
                barrier.arrive()
            }
        }
        let finished = await DeadlockWatch.drains(running)
        #expect(threads && finished, "deadlock: a ModelActor's job in a cycle")
        guard threads, finished else { return }
        let stored = try other.performAndWait { try ConcurrencyFixture.clubs(in: $0) }
        #expect(stored == 2 * rounds)
    }
}

/// A ``ModelActor`` whose method enters another context synchronously.
actor CycleEnterer: ModelActor {
    nonisolated let modelExecutor: ContextExecutor

    init(container: PersistentContainer) {
        modelExecutor = ContextExecutor(container: container)
    }

    /// Waits at `barrier` (inside the actor's context), then enters `other` and saves a club
    /// there.
    func enter(_ other: BackgroundContext, after barrier: ThreadBarrier) {
        barrier.arrive()
        other.performAndWait { context in
            try? ConcurrencyFixture.insertClubs(1, prefix: "a", into: context)
            try? context.save()
        }
    }
}

/// Threads meeting each round: `arrive()` returns once `parties` threads called it.
final class ThreadBarrier: Sendable {
    private let parties: Int
    private let state = Locked((arrived: 0, generation: 0))
    private let condition = NSCondition()

    init(parties: Int) { self.parties = parties }

    /// Waits until every party arrived in this round.
    func arrive() {
        condition.lock()
        defer { condition.unlock() }
        let generation = state.withLock { state -> Int in
            state.arrived += 1
            if state.arrived == parties {
                state.arrived = 0
                state.generation += 1
            }
            return state.arrived == 0 ? -1 : state.generation
        }
        if generation < 0 {
            condition.broadcast()
            return
        }
        while state.withLock({ $0.generation }) == generation { condition.wait() }
    }
}

/// Watchdogs for the scenarios: a deadlock fails the test after `seconds` instead of hanging.
enum DeadlockWatch {
    /// How long a scenario may take before it counts as deadlocked.
    static let seconds = 60

    /// Runs `body(index)` on `count` new threads; whether they all finished in time.
    static func onThreads(_ count: Int, _ body: @escaping @Sendable (Int) -> Void) async -> Bool {
        let running = DispatchGroup()
        for index in 0..<count {
            running.enter()
            Thread {
                body(index)
                running.leave()
            }.start()
        }
        return await drains(running)
    }

    /// Whether `group` empties in time (waited for off the caller's thread).
    static func drains(_ group: DispatchGroup) async -> Bool {
        await withCheckedContinuation { done in
            DispatchQueue.global().async {
                done.resume(returning: group.wait(timeout: .now() + .seconds(seconds)) == .success)
            }
        }
    }

    /// Runs `scenario` on the main actor under a watchdog. A deadlocked main thread cannot be
    /// handed back to the test runner, so on a timeout the watchdog records the issue, says so
    /// on standard error and ends the test process with a failure status.
    @MainActor static func onMainActor(_ name: String, _ scenario: () throws -> Void) async throws {
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                // Off the main actor; cancelled when the scenario ends in time.
                do { try await Task.sleep(for: .seconds(seconds)) } catch { return }
                Issue.record("deadlock: \(name) did not finish in \(seconds) s")
                FileHandle.standardError.write(
                    Data("DeadlockTests: deadlock in \(name); ending the test process\n".utf8))
                try? await Task.sleep(for: .seconds(1))  // lets the issue be reported
                exit(EXIT_FAILURE)
            }
            defer { group.cancelAll() }
            try scenario()
        }
    }
}
