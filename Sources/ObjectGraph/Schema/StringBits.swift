/// The two words a `String` is stored in: equal bits mean the very same string (the same
/// inline bytes for a short one, the same storage for a long one), so comparing them is an
/// exact, very cheap first test for a key that is a property's own name (string literals of up
/// to 15 UTF-8 bytes are stored inline). Different bits say nothing: compare the text then.
struct StringBits: Equatable, Sendable {
    let low: UInt64
    let high: UInt64

    /// The bits of `string`; `nil` where a `String` is not two 64-bit words.
    init?(_ string: String) {
        guard MemoryLayout<String>.size == MemoryLayout<(UInt64, UInt64)>.size else { return nil }
        (low, high) = unsafeBitCast(string, to: (UInt64, UInt64).self)
    }
}
