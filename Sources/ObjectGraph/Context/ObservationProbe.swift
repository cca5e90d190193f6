import Observation
import Synchronization

/// Tells whether a typed read happens inside `withObservationTracking` (or any other
/// Observation tracking scope) for the cost of one access of a registrar that already exists.
///
/// Observation keeps the tracking scope in a thread-local it does not export; an access of a
/// registrar outside a scope returns after reading it, and inside one adds the key path to the
/// scope's set, which hashes it. The probe's key path carries a ``Token`` whose hash counts in
/// the probe's ``hashes``: a read accesses the probe, and only when the count is not zero then
/// (inside a scope, or after Observation hashed the key path elsewhere) clears it and accesses
/// it again, to tell which (``isTracking(_:)``). So a context needs one probe (made with its
/// first typed read), and an object gets its own registrar, for precise notifications, only
/// when it is read inside a scope.
///
/// The probe's own registrar never announces a change: a scope's registration with it is
/// cancelled when one of the objects' registrars fires (`withObservationTracking` cancels
/// every registration of the scope), or goes with the context.
///
/// The probe is the subject of its own access (a final class of this module, not the object
/// read); its count comes before the registrar, whose size Observation knows only at run
/// time, so a read finds it at a constant offset. Its key path holds it (through the token);
/// the context's link holds the key path, so nothing holds the key path back.
@usableFromInline
final class ObservationProbe: Observable, Sendable {
    /// The key path's argument: hashing it counts in its probe's ``hashes``.
    struct Token: Hashable, Sendable {
        let probe: ObservationProbe

        static func == (lhs: Token, rhs: Token) -> Bool { lhs.probe === rhs.probe }

        func hash(into hasher: inout Hasher) {
            probe.hashes.wrappingAdd(1, ordering: .relaxed)
            hasher.combine(ObjectIdentifier(probe))
        }
    }

    /// How often the probe's key path was hashed since a read last cleared it. Observation may
    /// hash it on another thread or after a scope (installing or cancelling a scope's
    /// tracking); that only sends the next read to the exact test, which clears it.
    @usableFromInline let hashes = Atomic<Int>(0)
    @usableFromInline let registrar = ObservationRegistrar()

    /// The key path the probe is accessed by (one per probe: its token names this probe).
    static func keyPath(of probe: ObservationProbe) -> KeyPath<ObservationProbe, Bool> {
        \ObservationProbe.[token: Token(probe: probe)]
    }

    /// What the probe's key path names (nothing).
    subscript(token token: Token) -> Bool { false }

    /// Whether a read now may be inside an Observation tracking scope (which then holds the
    /// probe's key path: harmless, as the probe never announces a change): `false` means it
    /// is not; `true` asks for ``isTracking(_:)``.
    @inlinable @inline(__always)
    func mayBeTracking(_ keyPath: KeyPath<ObservationProbe, Bool>) -> Bool {
        registrar.access(self, keyPath: keyPath)
        return hashes.load(ordering: .relaxed) != 0
    }

    /// Whether a read now is inside an Observation tracking scope: the count cleared, then
    /// the access again.
    func isTracking(_ keyPath: KeyPath<ObservationProbe, Bool>) -> Bool {
        hashes.store(0, ordering: .relaxed)
        registrar.access(self, keyPath: keyPath)
        return hashes.load(ordering: .relaxed) != 0
    }
}
