import COpenSSL
import Foundation

/// SHA-2 digests through OpenSSL's libcrypto, and the little-endian byte writers the version
/// hash recipes need.
enum Digest {
    /// SHA-256 of `data`.
    static func sha256(_ data: Data) -> Data { digest(data, EVP_sha256(), length: 32) }

    /// SHA-256 of `bytes`.
    static func sha256(_ bytes: [UInt8]) -> Data { digest(bytes, EVP_sha256(), length: 32) }

    /// SHA-512 of `data`.
    static func sha512(_ data: Data) -> Data { digest(data, EVP_sha512(), length: 64) }

    private static func digest(
        _ data: some ContiguousBytes, _ type: OpaquePointer?, length: Int
    ) -> Data {
        var output = [UInt8](repeating: 0, count: length)
        var written: UInt32 = 0
        let status = data.withUnsafeBytes { buffer in
            EVP_Digest(buffer.baseAddress, buffer.count, &output, &written, type, nil)
        }
        // EVP_Digest fails only without memory or a broken libcrypto; the zero digest then
        // makes every hash comparison fail instead of crashing.
        if status != 1 { return Data(count: length) }
        return Data(output.prefix(Int(written)))
    }
}

extension Data {
    /// Appends `value`'s UTF-8 bytes.
    mutating func appendUTF8(_ value: String) { append(contentsOf: Array(value.utf8)) }

    /// Appends `value` little-endian.
    mutating func appendLittleEndian<T: FixedWidthInteger>(_ value: T) {
        Swift.withUnsafeBytes(of: value.littleEndian) { append(contentsOf: $0) }
    }
}
