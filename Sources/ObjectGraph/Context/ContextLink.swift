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
    /// while ``tracksObservation`` holds. Kept alive here; typed reads use ``probeReference``.
    private var probe: ObservationProbe? {
        didSet { probeReference = probe.map { Unmanaged.passUnretained($0) } }
    }
    /// ``probe`` without ownership, so that a typed read (which runs while its object holds
    /// this link, and the link the probe) asks it without retaining it.
    @exclusivity(unchecked) private(set) var probeReference: Unmanaged<ObservationProbe>?
    /// Whether typed reads register with Observation (see
    /// ``ManagedContext/tracksObservation``).
    var tracksObservation = true {
        didSet { if !tracksObservation { probe = nil } }
    }

    init() {}

    /// The probe, made now when the context tracks observation and has none yet.
    func startProbe() -> ObservationProbe? {
        guard tracksObservation else { return nil }
        if let probe { return probe }
        let probe = ObservationProbe()
        self.probe = probe
        return probe
    }
}
