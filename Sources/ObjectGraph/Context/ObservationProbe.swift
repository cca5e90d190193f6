import Observation
import Synchronization

/// Tells whether a typed read happens inside `withObservationTracking` (or any other
/// Observation tracking scope) for the cost of one access of a registrar that already exists.
///
/// Observation keeps the tracking scope in a thread-local it does not export; an access of a
/// registrar outside a scope returns after reading it, and inside one adds the key path to the
/// scope's set, which hashes it. The probe's key path carries a ``Token`` whose hash counts:
/// a read compares the count before and after its access. So a context needs one probe (made
/// with its first typed read), and an object gets its own registrar, for precise
/// notifications, only when it is read inside a scope.
///
/// The probe's own registrar never announces a change: a scope's registration with it is
/// cancelled when one of the objects' registrars fires (`withObservationTracking` cancels
/// every registration of the scope), or goes with the context.
///
/// The probe is the subject of its own access (a final class of this module, not the object
/// read), and its fields of fixed size come before the registrar, whose size Observation
/// knows only at run time: so a read finds them at constant offsets.
final class ObservationProbe: Observable {
    /// The key path's argument: hashing it counts in its ``Signal``.
    struct Token: Hashable {
        let signal: Signal

        static func == (lhs: Token, rhs: Token) -> Bool { lhs.signal === rhs.signal }

        func hash(into hasher: inout Hasher) {
            signal.hashes.wrappingAdd(1, ordering: .relaxed)
            hasher.combine(ObjectIdentifier(signal))
        }
    }

    /// How often the probe's key path was hashed. Observation may hash it on another thread
    /// (installing or cancelling a scope's tracking); that only makes a count differ, which at
    /// worst gives a read outside a scope a registrar it does not need. A hash by the read's
    /// own access is never missed.
    final class Signal: Sendable {
        let hashes = Atomic<Int>(0)
    }

    private let signal = Signal()
    private let keyPath: KeyPath<ObservationProbe, Bool>
    private let registrar = ObservationRegistrar()

    init() {
        keyPath = \ObservationProbe.[token: Token(signal: signal)]
    }

    /// What the probe's key path names (nothing).
    subscript(token token: Token) -> Bool { false }

    /// Whether a read now is inside an Observation tracking scope (which then holds the
    /// probe's key path: harmless, as the probe never announces a change).
    @inline(__always)
    func isTracking() -> Bool {
        let before = signal.hashes.load(ordering: .relaxed)
        registrar.access(self, keyPath: keyPath)
        return signal.hashes.load(ordering: .relaxed) != before
    }
}
