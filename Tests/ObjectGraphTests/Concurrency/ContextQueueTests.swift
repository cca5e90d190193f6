import Foundation
import Testing

@testable import ObjectGraph

/// `performAndWait` and the queues behind it: inline where it must be, re-entrant, exclusive,
/// and never deadlocking through nesting.
@Suite("Context queues and performAndWait")
struct ContextQueueTests {
    @Test("a context made without a type is confined; performAndWait runs inline")
    func confinedRunsInline() throws {
        let fixture = try ConcurrencyFixture()
        defer { fixture.remove() }
        let context = ManagedContext(coordinator: fixture.coordinator)
        #expect(context.concurrencyType == .confined)
        let caller = currentThreadID()
        let ran = context.performAndWait { currentThreadID() }
        #expect(ran == caller)
        let count = try context.performAndWait {
            try ConcurrencyFixture.insertClubs(2, prefix: "c", into: context)
            return try ConcurrencyFixture.clubs(in: context)
        }
        #expect(count == 2)
    }

    @Test("a free private queue runs performAndWait on the caller's thread")
    func privateRunsOnCaller() throws {
        let fixture = try ConcurrencyFixture()
        defer { fixture.remove() }
        let background = BackgroundContext(coordinator: fixture.coordinator)
        let caller = currentThreadID()
        let ran = background.performAndWait { _ in currentThreadID() }
        #expect(ran == caller)
        #expect(background.performAndWait { $0.concurrencyType } == .privateQueue)
    }

    @Test("performAndWait rethrows the block's typed error and the context stays usable")
    func performAndWaitRethrows() throws {
        let fixture = try ConcurrencyFixture()
        defer { fixture.remove() }
        let background = BackgroundContext(coordinator: fixture.coordinator)
        let thrown = #expect(throws: Refused.self) {
            try background.performAndWait { (context) throws(Refused) -> Int in
                try? ConcurrencyFixture.insertClubs(1, prefix: "a", into: context)
                throw Refused(reason: "no")
            }
        }
        #expect(thrown == Refused(reason: "no"))
        let saved = try background.performAndWait { context in
            try context.save()
            return try ConcurrencyFixture.clubs(in: context)
        }
        #expect(saved == 1)
    }

    @Test("A { B { A { … } } } on one thread runs inline and does not deadlock")
    func nestedPrivateQueues() throws {
        let fixture = try ConcurrencyFixture()
        defer { fixture.remove() }
        let first = BackgroundContext(coordinator: fixture.coordinator)
        let second = BackgroundContext(coordinator: fixture.coordinator)
        let caller = currentThreadID()
        let threads = try first.performAndWait { a in
            try second.performAndWait { b in
                try a.performAndWait {
                    try b.performAndWait {
                        try ConcurrencyFixture.insertClubs(1, prefix: "a", into: a)
                        try ConcurrencyFixture.insertClubs(1, prefix: "b", into: b)
                        try a.save()
                        try b.save()
                        return [currentThreadID()]
                    } + [currentThreadID()]
                }
            }
        }
        #expect(threads == [caller, caller])
        #expect(try first.performAndWait { try ConcurrencyFixture.clubs(in: $0) } == 2)
    }

    @Test("private { main { private { … } } } from a background thread carries the caller along")
    func nestedThroughMainQueue() async throws {
        let fixture = try ConcurrencyFixture()
        defer { fixture.remove() }
        let background = BackgroundContext(coordinator: fixture.coordinator)
        let main = await MainBox.made(coordinator: fixture.coordinator, name: "main")
        // On a thread of the task pool (not the main thread).
        let result = try await Task.detached {
            try background.performAndWait { a in
                try main.context.performAndWait {
                    let onMain = ContextQueue.isOnMainQueue
                    try ConcurrencyFixture.insertClubs(1, prefix: "m", into: main.context)
                    try main.context.save()
                    let inner = try a.performAndWait {
                        try ConcurrencyFixture.clubs(in: a)
                    }
                    return (onMain, inner)
                }
            }
        }.value
        #expect(result.0)
        #expect(result.1 == 1)
    }

    @Test("main { private { main { … } } } on the main actor runs inline")
    @MainActor func nestedFromMainActor() throws {
        let fixture = try ConcurrencyFixture()
        defer { fixture.remove() }
        let view = ManagedContext(coordinator: fixture.coordinator, concurrencyType: .mainQueue)
        let background = BackgroundContext(coordinator: fixture.coordinator)
        let count = try view.performAndWait {
            try background.performAndWait { b in
                try view.performAndWait {
                    try ConcurrencyFixture.insertClubs(3, prefix: "v", into: view)
                    try view.save()
                }
                return try ConcurrencyFixture.clubs(in: b)
            }
        }
        #expect(count == 3)
    }

    @Test("performAndWait inside perform runs inline, on the queue")
    func performAndWaitInsidePerform() async throws {
        let fixture = try ConcurrencyFixture()
        defer { fixture.remove() }
        let background = BackgroundContext(coordinator: fixture.coordinator)
        let count = try await background.perform { context in
            try context.performAndWait {
                try background.performAndWait { inner in
                    #expect(inner === context)
                    try ConcurrencyFixture.insertClubs(2, prefix: "p", into: inner)
                }
                try context.save()
            }
            return try ConcurrencyFixture.clubs(in: context)
        }
        #expect(count == 2)
    }

    @Test("many threads entering one context synchronously and asynchronously exclude each other")
    func manyThreadsOneContext() async throws {
        let fixture = try ConcurrencyFixture()
        defer { fixture.remove() }
        let background = BackgroundContext(coordinator: fixture.coordinator)
        let tally = QueueGuarded(0)
        let threads = 8
        let rounds = 50
        let pending = DispatchGroup()
        DispatchQueue.concurrentPerform(iterations: threads) { thread in
            for round in 0..<rounds {
                background.performAndWait { context in
                    // A read, a pause and a write: a second block inside the queue at the same
                    // time would lose an update.
                    let seen = tally.value
                    try? context.insert("Club").set("s\(thread)-\(round)", for: "title")
                    usleep(20)  // widens the window a second block would have to slip in
                    tally.value = seen + 1
                }
                pending.enter()
                background.perform { context in
                    let seen = tally.value
                    try? context.insert("Club").set("a\(thread)-\(round)", for: "title")
                    usleep(20)
                    tally.value = seen + 1
                    pending.leave()
                }
            }
        }
        pending.wait()
        let (total, clubs) = try await background.perform { context in
            try context.save()
            return (tally.value, try ConcurrencyFixture.clubs(in: context))
        }
        #expect(total == threads * rounds * 2)
        #expect(clubs == threads * rounds * 2)
    }
}

/// A main-queue context made on the main actor and carried to a background thread only to
/// enter it through `performAndWait` (which runs its blocks on the main thread).
final class MainBox: @unchecked Sendable {
    // `@unchecked`: `context` is used only through `context.performAndWait`, whose block runs
    // on the main thread.
    let context: ManagedContext

    @MainActor init(coordinator: StoreCoordinator, name: String) {
        context = ManagedContext(coordinator: coordinator, concurrencyType: .mainQueue)
        context.name = name
    }

    /// A box made on the main actor, its context named `name`.
    static func made(coordinator: StoreCoordinator, name: String) async -> MainBox {
        await MainActor.run { MainBox(coordinator: coordinator, name: name) }
    }
}
