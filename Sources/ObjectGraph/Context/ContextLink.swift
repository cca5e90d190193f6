import Observation

/// What a context's objects hold to reach their context: one per context, held strongly by
/// the context and by each of its objects, and cleared when the context goes away.
///
/// A weak reference from every object to its context would make the context's runtime side
/// table the target of every object's creation: each new object took a weak reference and a
/// retain of the context through its slow path (about 3% of fetching 100,000 objects). The
/// link is an ordinary object, and its reference to the context does not count.
///
/// The context clears the link first thing in its `deinit`, so a link's context is either
/// alive or `nil`; objects that leave a context drop its link.
@usableFromInline
final class ContextLink {
    /// The context, or `nil` once it is gone.
    unowned(unsafe) var context: ManagedContext?
    /// Where the slots of the context's new objects are taken from.
    var arena = SlotArena()
    /// The observation registrars of the context's objects that were read through typed
    /// accessors inside an Observation tracking scope (see
    /// ``ManagedObject/observationAccess(_:)``).
    var registrars: [ObjectIdentifier: ObservationRegistrar] = [:]
    /// Tells typed reads whether they are inside a tracking scope; made by the first typed read
    /// while ``tracksObservation`` holds, with the key path it is accessed by. Kept alive here
    /// (the key path holds the probe); typed reads use ``probeReference``.
    private var probe: (probe: ObservationProbe, keyPath: KeyPath<ObservationProbe, Bool>)? {
        didSet {
            probeReference = probe.map {
                ProbeReference(
                    probe: Unmanaged.passUnretained($0.probe),
                    keyPath: Unmanaged.passUnretained($0.keyPath))
            }
        }
    }
    /// ``probe`` without ownership, so that a typed read (which runs while its object holds
    /// this link, and the link the probe) asks it without retaining it.
    @usableFromInline @exclusivity(unchecked) private(set) var probeReference: ProbeReference?
    /// Whether typed reads register with Observation (see
    /// ``ManagedContext/tracksObservation``).
    @usableFromInline @exclusivity(unchecked) var tracksObservation = true {
        didSet { if !tracksObservation { probe = nil } }
    }

    init() {}

    /// The probe, made now when the context tracks observation and has none yet.
    func startProbe() -> ProbeReference? {
        guard tracksObservation else { return nil }
        if probe == nil {
            let made = ObservationProbe()
            probe = (made, ObservationProbe.keyPath(of: made))
        }
        return probeReference
    }

    /// The probe and its key path, not retained.
    @usableFromInline
    struct ProbeReference {
        @usableFromInline let probe: Unmanaged<ObservationProbe>
        @usableFromInline let keyPath: Unmanaged<KeyPath<ObservationProbe, Bool>>

        /// Whether a read now may be inside a tracking scope (see
        /// ``ObservationProbe/mayBeTracking(_:)``).
        @inlinable @inline(__always)
        func mayBeTracking() -> Bool {
            probe._withUnsafeGuaranteedRef { probe in
                keyPath._withUnsafeGuaranteedRef { probe.mayBeTracking($0) }
            }
        }

        /// Whether a read now is inside a tracking scope (see
        /// ``ObservationProbe/isTracking(_:)``).
        func isTracking() -> Bool {
            probe._withUnsafeGuaranteedRef { probe in
                keyPath._withUnsafeGuaranteedRef { probe.isTracking($0) }
            }
        }
    }
}
