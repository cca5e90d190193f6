/// The cost of the scrypt key derivation that turns a passphrase into the key-encryption key.
///
/// They are chosen when the keychain is created (or its passphrase changed) and stored in the
/// database with the salt. The default (N = 2^15, r = 8, p = 1: 32 MiB, about 0.1 s) follows
/// the scrypt paper's interactive setting; tests use ``fast`` to stay quick.
///
/// ```swift
/// try store.create(passphrase: "correct horse", scrypt: ScryptParameters(log2N: 16))
/// ```
public struct ScryptParameters: Sendable, Hashable, CustomStringConvertible {
    /// log2 of the CPU/memory cost N (N = 2^log2N), 1…22.
    public var log2N: Int
    /// The block size r, 1…32.
    public var r: Int
    /// The parallelism p, 1…16.
    public var p: Int

    /// Creates parameters; ``validate()`` checks them.
    public init(log2N: Int = 15, r: Int = 8, p: Int = 1) {
        self.log2N = log2N
        self.r = r
        self.p = p
    }

    /// N = 2^15, r = 8, p = 1.
    public static let interactive = ScryptParameters()
    /// N = 2^10, r = 8, p = 1: 1 MiB, for tests only.
    public static let fast = ScryptParameters(log2N: 10)

    /// The cost N.
    public var n: UInt64 { UInt64(1) << UInt64(max(0, min(log2N, 62))) }

    /// The memory scrypt needs, in bytes, with a margin (OpenSSL's `maxmem`).
    var memoryLimit: UInt64 {
        let blocks = UInt64(128) * UInt64(r) * (n + 2 + UInt64(p))
        return blocks + (1 << 20)
    }

    /// The most work ObjectGraph writes or reads: N·r·p ≤ 2^20, four times ``interactive``
    /// (2^15·8·1), at most 128 MiB and about half a second on one core.
    public static let maximumWork: UInt64 = 1 << 20

    /// The work of a derivation, N·r·p (`nil` when a value is out of range).
    var work: UInt64? {
        guard (1...22).contains(log2N), (1...32).contains(r), (1...16).contains(p) else {
            return nil
        }
        return n * UInt64(r) * UInt64(p)
    }

    /// Throws `.param` when a value is out of range (log2N 1…22, r 1…32, p 1…16) or the work
    /// N·r·p exceeds ``maximumWork``. Values read from a file are checked before any work, so a
    /// tampered file cannot make unlocking cost gigabytes and minutes.
    public func validate() throws {
        guard let work, work <= Self.maximumWork else {
            throw KeychainError(
                .param,
                "scrypt parameters out of range (log2N 1...22, r 1...32, p 1...16, "
                    + "N·r·p at most 2^20): \(self)")
        }
    }

    /// `N=2^15 r=8 p=1`.
    public var description: String { "N=2^\(log2N) r=\(r) p=\(p)" }
}
