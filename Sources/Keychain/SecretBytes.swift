import COpenSSL

/// Key material in a buffer that is overwritten (`OPENSSL_cleanse`) when the last reference
/// goes away. Its description never shows the bytes.
///
/// The bytes are read through ``bytes`` and passed straight to libcrypto; code must not keep
/// copies that outlive the call.
final class SecretBytes: @unchecked Sendable, CustomStringConvertible,
    CustomDebugStringConvertible
{
    // @unchecked Sendable: `bytes` is only written by init and deinit.
    private(set) var bytes: [UInt8]

    /// Takes ownership of `bytes`.
    init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    deinit {
        SecretBytes.cleanse(&bytes)
    }

    var count: Int { bytes.count }

    var description: String { "<\(bytes.count) secret bytes, redacted>" }
    var debugDescription: String { description }

    /// Overwrites `buffer` with zeros in a way the optimizer keeps.
    static func cleanse(_ buffer: inout [UInt8]) {
        buffer.withUnsafeMutableBytes { raw in
            if let base = raw.baseAddress, raw.count > 0 {
                OPENSSL_cleanse(base, raw.count)
            }
        }
    }
}
