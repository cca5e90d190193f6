import Observation

/// Managed objects take part in Swift's Observation framework: a property read through its
/// typed accessor (what generated classes' properties call) inside `withObservationTracking`
/// is registered, and a change of it fires the observer, whether it was set in this context,
/// undone or redone, rolled back, or reloaded by a refresh or a merge of another context's save.
///
/// ```swift
/// withObservationTracking { _ = student.name } onChange: { print("name changed") }
/// student.name = "Ada"                  // prints "name changed"
/// ```
///
/// Tracking is on once the context's ``ManagedContext/tracksObservation`` is set (off, a typed
/// read costs one flag test): an object then gets its registrar (kept by its context) the first
/// time one of its properties is read through a typed accessor; changes of objects that never
/// had one cost one flag test.
extension ManagedObject: Observable {
    /// The key path the registrar knows the property at `position` by.
    subscript(observedPosition position: Int) -> Int { position }

    /// Registers a read of the property at `position` with the current observation tracking.
    @usableFromInline
    func observationAccess(_ position: Int) {
        guard let link, link.tracksObservation else { return }
        let registrar: ObservationRegistrar
        if isObserved, let existing = link.registrars[ObjectIdentifier(self)] {
            registrar = existing
        } else {
            registrar = ObservationRegistrar()
            link.registrars[ObjectIdentifier(self)] = registrar
            isObserved = true
        }
        registrar.access(self as ManagedObject, keyPath: Self.observedKeyPath(position))
    }

    /// Tells the observers of the property at `position` that its value changed.
    @inline(__always)
    func observedChange(at position: Int) {
        if isObserved { notifyObservers(of: CollectionOfOne(position)) }
    }

    /// Tells the observers of every property that its value may have changed (a reload, a
    /// rollback, or the object turned into a fault).
    @inline(__always)
    func observedChangeOfAll() {
        if isObserved { notifyObservers(of: 0..<schema.kinds.count) }
    }

    private func notifyObservers(of positions: some Sequence<Int>) {
        guard let registrar = link?.registrars[ObjectIdentifier(self)] else { return }
        for position in positions {
            registrar.withMutation(
                of: self as ManagedObject, keyPath: Self.observedKeyPath(position)
            ) {}
        }
    }

    /// Forgets the object's registrar (it leaves its context).
    func dropObservation() {
        guard isObserved else { return }
        link?.registrars[ObjectIdentifier(self)] = nil
        isObserved = false
    }

    /// Made once and never changed (key paths are immutable; they are not `Sendable` only
    /// because `ManagedObject` is not).
    nonisolated(unsafe) private static let positionKeyPaths: [KeyPath<ManagedObject, Int>] =
        (0..<64).map {
            \ManagedObject.[observedPosition: $0]
        }

    private static func observedKeyPath(_ position: Int) -> KeyPath<ManagedObject, Int> {
        position < positionKeyPaths.count
            ? positionKeyPaths[position] : \ManagedObject.[observedPosition: position]
    }
}

extension ManagedContext {
    /// Whether the context's objects take part in Swift's Observation framework (off by
    /// default, so typed reads of contexts nobody observes cost nothing more).
    ///
    /// ```swift
    /// context.tracksObservation = true
    /// withObservationTracking { _ = student.name } onChange: { print("changed") }
    /// ```
    public var tracksObservation: Bool {
        get { link.tracksObservation }
        set { link.tracksObservation = newValue }
    }
}
