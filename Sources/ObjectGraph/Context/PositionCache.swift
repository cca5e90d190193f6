import Synchronization

/// A property's position in the slots of the entity schemas it was looked up in, kept so a
/// typed access looks its name up once per schema: what ``TypedProperty`` and
/// ``TypedAttribute`` hold.
///
/// Atomic words, each a schema's ``EntitySchema/token`` and the position: the first schema
/// looked up keeps the first word, which a read tests inline; others take one of four more,
/// chosen by the token's low bits and tested out of line. So classes used by contexts on
/// several threads share it safely, and an entity and its subentities (whose objects a fetch
/// mixes) each keep their own; a schema whose word another took looks the name up again. It
/// starts empty, so a constant of it is initialized by the compiler, not lazily at its first
/// use.
@usableFromInline
struct PositionCache: ~Copyable, Sendable {
    // `token << 20 | position` of a schema the position was looked up in (0: none): the first
    // one's, then others' by the token's two low bits.
    @usableFromInline let first: Atomic<UInt64>
    @usableFromInline let cached0: Atomic<UInt64>
    @usableFromInline let cached1: Atomic<UInt64>
    @usableFromInline let cached2: Atomic<UInt64>
    @usableFromInline let cached3: Atomic<UInt64>

    /// An empty cache.
    @inlinable
    init() {
        first = Atomic(0)
        cached0 = Atomic(0)
        cached1 = Atomic(0)
        cached2 = Atomic(0)
        cached3 = Atomic(0)
    }

    /// The cache word for `token` other than the first.
    private func load(_ token: UInt64) -> UInt64 {
        switch token & 3 {
        case 0: return cached0.load(ordering: .relaxed)
        case 1: return cached1.load(ordering: .relaxed)
        case 2: return cached2.load(ordering: .relaxed)
        default: return cached3.load(ordering: .relaxed)
        }
    }

    private func store(_ word: UInt64, for token: UInt64) {
        // The first schema looked up keeps the first word; a race for it leaves the loser to
        // the others.
        if first.compareExchange(expected: 0, desired: word, ordering: .relaxed).exchanged {
            return
        }
        switch token & 3 {
        case 0: cached0.store(word, ordering: .relaxed)
        case 1: cached1.store(word, ordering: .relaxed)
        case 2: cached2.store(word, ordering: .relaxed)
        default: cached3.store(word, ordering: .relaxed)
        }
    }

    /// The position of the property `name` in `schema`, or `nil` when the entity has no such
    /// property.
    @inlinable @inline(__always)
    func position(in schema: EntitySchema, name: String) -> Int? {
        let word = first.load(ordering: .relaxed)
        if word >> 20 == schema.token { return Int(truncatingIfNeeded: word & 0xF_FFFF) }
        return otherPosition(in: schema, name: name)
    }

    /// The position for a schema other than the first looked up (or none looked up yet).
    @usableFromInline @inline(never)
    func otherPosition(in schema: EntitySchema, name: String) -> Int? {
        let word = load(schema.token)
        if word >> 20 == schema.token { return Int(truncatingIfNeeded: word & 0xF_FFFF) }
        guard let position = try? schema.position(of: name) else { return nil }
        if position <= 0xF_FFFF {
            store(schema.token << 20 | UInt64(position), for: schema.token)
        }
        return position
    }
}
