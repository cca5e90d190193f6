import Foundation

/// A use of a queue-bound context outside its queue, found by the debug detector.
///
/// Debug builds check, at a context's entry points (inserting, fetching, counting, saving,
/// deleting, looking objects up, and reading or writing an object's properties), that a
/// ``ManagedContext/ConcurrencyType/privateQueue`` or ``ManagedContext/ConcurrencyType/mainQueue``
/// context is used inside its queue; a use outside it is passed to
/// ``ConcurrencyDebugging/violationHandler``. Release builds compile the checks out.
public struct ConcurrencyViolation: Sendable, Hashable, CustomStringConvertible {
    /// The context's ``ManagedContext/name`` (`nil` when it has none).
    public let contextName: String?
    /// The context's concurrency type.
    public let concurrencyType: ManagedContext.ConcurrencyType
    /// The context's address, for telling unnamed contexts apart.
    public let contextAddress: UInt
    /// What was asked of the context (`"insert"`, `"fetch"`, `"save"`, `"property read"`, …).
    public let operation: String
    /// The thread that asked: `main`, or its pthread handle and name (`0x7f3a… "importer"`).
    public let thread: String

    /// Describes the violation in one line, naming the context and the thread.
    public var description: String {
        let kind: String
        switch concurrencyType {
        case .confined: kind = "confined"
        case .mainQueue: kind = "main-queue"
        case .privateQueue: kind = "private-queue"
        }
        let name = contextName.map { "\"\($0)\"" } ?? "(unnamed)"
        return "ObjectGraph concurrency violation: \(operation) on \(kind) context \(name)"
            + " at 0x\(String(contextAddress, radix: 16)) from thread \(thread), outside the"
            + " context's queue (enter it with perform or performAndWait)"
    }
}

/// What the debug detector does with a ``ConcurrencyViolation``.
///
/// ```swift
/// // In a test: record violations instead of stopping.
/// ConcurrencyDebugging.violationHandler = { violation in recorded.withLock { $0.append(violation) } }
/// ```
public enum ConcurrencyDebugging {
    private static let handler = Locked<@Sendable (ConcurrencyViolation) -> Void>(
        ConcurrencyDebugging.stop)

    /// Called (on the offending thread) with each violation found in a debug build. The
    /// default, ``stop``, prints the violation to standard error and stops the program
    /// with `preconditionFailure`; when a handler returns, the offending call goes on.
    public static var violationHandler: @Sendable (ConcurrencyViolation) -> Void {
        get { handler.withLock { $0 } }
        set { handler.withLock { $0 = newValue } }
    }

    /// The default handler: prints `violation` to standard error, then stops the program.
    public static let stop: @Sendable (ConcurrencyViolation) -> Void = { violation in
        FileHandle.standardError.write(Data("\(violation)\n".utf8))
        preconditionFailure(violation.description)
    }

    /// Reports that `context` was used for `operation` outside its queue.
    static func report(_ context: ManagedContext, _ operation: StaticString) {
        let violation = ConcurrencyViolation(
            contextName: context.name, concurrencyType: context.queue.kind,
            contextAddress: UInt(bitPattern: Unmanaged.passUnretained(context).toOpaque()),
            operation: "\(operation)", thread: currentThreadDescription())
        violationHandler(violation)
    }

    /// The current thread, as a violation names it: `main`, or its pthread handle and, when it
    /// has one, its name (`0x7f3a… "importer"`).
    static func currentThreadDescription() -> String {
        if Thread.isMainThread { return "main" }
        #if canImport(Darwin)
            let handle = UInt(bitPattern: pthread_self())
        #else
            let handle = UInt(pthread_self())
        #endif
        let described = "0x" + String(handle, radix: 16)
        guard let name = Thread.current.name, !name.isEmpty else { return described }
        return "\(described) \"\(name)\""
    }
}

extension ManagedContext {
    /// Checks, in debug builds, that a queue-bound context is used inside its queue (see
    /// ``ConcurrencyViolation``). Compiled out of release builds; a confined context is not
    /// checked (the compiler checks it).
    @inline(__always)
    func checkQueue(_ operation: StaticString) {
        #if DEBUG
            if queue.kind != .confined, !queue.isCurrent {
                ConcurrencyDebugging.report(self, operation)
            }
        #endif
    }
}

extension ManagedObject {
    /// Checks, in debug builds, that the object's context (if any) is used inside its queue.
    @usableFromInline @inline(__always)
    func checkQueue(_ operation: StaticString) {
        #if DEBUG
            link?.context?.checkQueue(operation)
        #endif
    }
}
