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
/// Notifications are precise: an observer of `ada.name` fires for a change of `ada.name` only,
/// never for `ada.email` or `bob.name`. (Each object read inside a tracking scope gets its own
/// registrar, keyed by property.)
///
/// It costs little where nobody observes: a typed read outside a tracking scope is one access
/// of the context's ``ObservationProbe`` (Observation's thread-local test) and a test of its
/// count, and makes nothing; a change of an object never read inside a scope costs one flag
/// test. A context can turn it off (``ManagedContext/tracksObservation``).
extension ManagedObject: Observable {
    /// The key path the registrar knows the property at `position` by.
    subscript(observedPosition position: Int) -> Int { position }

    /// Registers a read of the property at `position` with the current observation tracking
    /// scope, if there is one.
    @inlinable
    @inline(__always)
    func observationAccess(_ position: Int) {
        // Neither the link nor its probe is retained: the object holds its link and the link
        // its probe throughout, as the probe's access calls back only its token's hash, which
        // touches neither.
        guard let link = link.map({ Unmanaged.passUnretained($0) }) else { return }
        let mayBeTracking = link._withUnsafeGuaranteedRef { link -> Bool in
            // No probe: none made yet (the exact test makes one), or the context does not
            // track observation (then nothing to test: a read of such a context went out of
            // line to ask for a probe every time).
            guard let probe = link.probeReference else { return link.tracksObservation }
            return probe.mayBeTracking()
        }
        if mayBeTracking { accessIfTracking(position) }
    }

    /// Registers the read when it is inside a tracking scope: what a read does when its probe
    /// may have been hashed (or the context has no probe yet: it makes one when it tracks
    /// observation).
    @usableFromInline @inline(never)
    func accessIfTracking(_ position: Int) {
        guard let probe = link?.startProbe(), probe.isTracking() else { return }
        trackedAccess(position)
    }

    /// Registers a read inside a tracking scope with the object's own registrar (made now if
    /// it has none).
    @inline(never)
    private func trackedAccess(_ position: Int) {
        guard let link else { return }
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

    /// Forgets the object's registrar (it leaves its context, or goes): Observation tells an
    /// observer still registered with it that the object changed.
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
    /// Whether typed reads of the context's objects register with Swift's Observation
    /// framework (on by default). Off, a typed read skips even the test for a tracking scope;
    /// observers registered before still hear of changes.
    ///
    /// ```swift
    /// importContext.tracksObservation = false    // nobody observes this context's objects
    /// ```
    public var tracksObservation: Bool {
        get { link.tracksObservation }
        set { link.tracksObservation = newValue }
    }
}
