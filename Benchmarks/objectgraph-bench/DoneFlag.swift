import Synchronization

/// A flag one thread sets and others poll (the end of the writers, of the view context's
/// merges). `Sendable`: the value is atomic.
final class DoneFlag: Sendable {
    private let value = Atomic<Bool>(false)

    /// Sets the flag.
    func set() { value.store(true, ordering: .releasing) }

    /// Whether the flag is set.
    var isSet: Bool { value.load(ordering: .acquiring) }
}
