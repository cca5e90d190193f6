import Synchronization

/// A property's position in the slots of the entity schemas it was looked up in, kept so a
/// typed access looks its name up once per schema: what ``TypedProperty`` and
/// ``TypedAttribute`` hold.
///
/// Four atomic words, each a schema's ``EntitySchema/token`` and the position, chosen by the
/// token's low bits: so classes used by contexts on several threads share it safely, and an
/// entity and its subentities (whose objects a fetch mixes) each keep their own; a schema
/// whose word another took looks the name up again. It starts empty, so a constant of it is
/// initialized by the compiler, not lazily at its first use.
@usableFromInline
struct PositionCache: ~Copyable, Sendable {
    // `token << 20 | position` of a schema the position was looked up in (0: none), by the
    // token's two low bits.
    @usableFromInline let cached0: Atomic<UInt64>
    @usableFromInline let cached1: Atomic<UInt64>
    @usableFromInline let cached2: Atomic<UInt64>
    @usableFromInline let cached3: Atomic<UInt64>

    /// An empty cache.
    @inlinable
    init() {
        cached0 = Atomic(0)
        cached1 = Atomic(0)
        cached2 = Atomic(0)
        cached3 = Atomic(0)
    }

    /// The cache word for `token`.
    @inline(__always)
    private func load(_ token: UInt64) -> UInt64 {
        switch token & 3 {
        case 0: return cached0.load(ordering: .relaxed)
        case 1: return cached1.load(ordering: .relaxed)
        case 2: return cached2.load(ordering: .relaxed)
        default: return cached3.load(ordering: .relaxed)
        }
    }

    private func store(_ word: UInt64, for token: UInt64) {
        switch token & 3 {
        case 0: cached0.store(word, ordering: .relaxed)
        case 1: cached1.store(word, ordering: .relaxed)
        case 2: cached2.store(word, ordering: .relaxed)
        default: cached3.store(word, ordering: .relaxed)
        }
    }

    /// The position of the property `name` in `schema`, or `nil` when the entity has no such
    /// property.
    @inline(__always)
    func position(in schema: EntitySchema, name: String) -> Int? {
        let word = load(schema.token)
        if word >> 20 == schema.token { return Int(truncatingIfNeeded: word & 0xF_FFFF) }
        return lookUp(in: schema, name: name)
    }

    private func lookUp(in schema: EntitySchema, name: String) -> Int? {
        guard let position = try? schema.position(of: name) else { return nil }
        if position <= 0xF_FFFF {
            store(schema.token << 20 | UInt64(position), for: schema.token)
        }
        return position
    }
}
