import COpenSSL

/// The libcrypto primitives the keychain uses: random bytes, AES-256-GCM, HMAC-SHA256 and
/// scrypt. Every function reports failure as a ``KeychainError`` without any key or data.
enum Crypto {
    /// Bytes in a key (AES-256, HMAC-SHA256 keys).
    static let keyLength = 32
    /// Bytes in a GCM nonce (96 bits).
    static let nonceLength = 12
    /// Bytes in a GCM tag.
    static let tagLength = 16
    /// The largest plaintext or additional data accepted (libcrypto takes `Int32` lengths).
    static let maximumLength = 1 << 30

    /// `count` bytes from the OpenSSL CSPRNG.
    static func randomBytes(_ count: Int) throws -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        let result = bytes.withUnsafeMutableBufferPointer { buffer in
            RAND_bytes(buffer.baseAddress, Int32(buffer.count))
        }
        guard result == 1 else {
            throw KeychainError(.io, "the random number generator (RAND_bytes) failed")
        }
        return bytes
    }

    /// A new random key, held in a buffer zeroed on release.
    static func randomKey() throws -> SecretBytes {
        SecretBytes(try randomBytes(keyLength))
    }

    // MARK: - AES-256-GCM

    /// Encrypts `plaintext` under `key` with a fresh random nonce, authenticating `aad` too.
    ///
    /// - Returns: nonce (12 bytes) ‖ ciphertext ‖ tag (16 bytes).
    static func seal(_ plaintext: [UInt8], key: SecretBytes, aad: [UInt8]) throws -> [UInt8] {
        guard key.count == keyLength else {
            throw KeychainError(.param, "an AES-256-GCM key must be 32 bytes")
        }
        guard plaintext.count <= maximumLength, aad.count <= maximumLength else {
            throw KeychainError(.param, "a keychain secret must be smaller than 1 GiB")
        }
        let nonce = try randomBytes(nonceLength)
        guard let context = EVP_CIPHER_CTX_new() else {
            throw KeychainError(.io, "cannot allocate a cipher context")
        }
        defer { EVP_CIPHER_CTX_free(context) }
        var output = [UInt8](repeating: 0, count: nonceLength + plaintext.count + tagLength)
        var length: Int32 = 0
        let ok = output.withUnsafeMutableBufferPointer { out -> Bool in
            guard let base = out.baseAddress,
                EVP_EncryptInit_ex(context, EVP_aes_256_gcm(), nil, nil, nil) == 1,
                EVP_CIPHER_CTX_ctrl(context, EVP_CTRL_AEAD_SET_IVLEN, Int32(nonceLength), nil)
                    == 1,
                EVP_EncryptInit_ex(context, nil, nil, key.bytes, nonce) == 1
            else { return false }
            for index in 0..<nonceLength { base[index] = nonce[index] }
            if !aad.isEmpty {
                guard EVP_EncryptUpdate(context, nil, &length, aad, Int32(aad.count)) == 1 else {
                    return false
                }
            }
            var written: Int32 = 0
            if !plaintext.isEmpty {
                guard
                    EVP_EncryptUpdate(
                        context, base + nonceLength, &written, plaintext, Int32(plaintext.count))
                        == 1
                else { return false }
            }
            var final: Int32 = 0
            guard EVP_EncryptFinal_ex(context, base + nonceLength + Int(written), &final) == 1
            else { return false }
            let tag = base + nonceLength + plaintext.count
            return EVP_CIPHER_CTX_ctrl(context, EVP_CTRL_AEAD_GET_TAG, Int32(tagLength), tag) == 1
        }
        guard ok else { throw KeychainError(.io, "AES-256-GCM encryption failed") }
        return output
    }

    /// Decrypts what ``seal(_:key:aad:)`` produced, checking the tag over the ciphertext and
    /// `aad`.
    ///
    /// - Throws: `.decode` when the data is malformed or fails authentication (wrong key,
    ///   edited ciphertext, or `aad` that differs from the one sealed).
    static func open(_ sealed: [UInt8], key: SecretBytes, aad: [UInt8], what: String) throws
        -> [UInt8]
    {
        guard key.count == keyLength else {
            throw KeychainError(.param, "an AES-256-GCM key must be 32 bytes")
        }
        guard sealed.count <= maximumLength, aad.count <= maximumLength else {
            throw KeychainError(.decode, "\(what) is too large")
        }
        guard sealed.count >= nonceLength + tagLength else {
            throw KeychainError(.decode, "\(what) is too short to be AES-256-GCM ciphertext")
        }
        guard let context = EVP_CIPHER_CTX_new() else {
            throw KeychainError(.io, "cannot allocate a cipher context")
        }
        defer { EVP_CIPHER_CTX_free(context) }
        let bodyLength = sealed.count - nonceLength - tagLength
        var plaintext = [UInt8](repeating: 0, count: bodyLength + 16)
        var length: Int32 = 0
        let ok = sealed.withUnsafeBufferPointer { input -> Bool in
            guard let base = input.baseAddress,
                EVP_DecryptInit_ex(context, EVP_aes_256_gcm(), nil, nil, nil) == 1,
                EVP_CIPHER_CTX_ctrl(context, EVP_CTRL_AEAD_SET_IVLEN, Int32(nonceLength), nil)
                    == 1,
                EVP_DecryptInit_ex(context, nil, nil, key.bytes, base) == 1
            else { return false }
            if !aad.isEmpty {
                guard EVP_DecryptUpdate(context, nil, &length, aad, Int32(aad.count)) == 1 else {
                    return false
                }
            }
            var written: Int32 = 0
            if bodyLength > 0 {
                let decrypted = plaintext.withUnsafeMutableBufferPointer { out in
                    EVP_DecryptUpdate(
                        context, out.baseAddress, &written, base + nonceLength, Int32(bodyLength))
                }
                guard decrypted == 1 else { return false }
            }
            let tag = UnsafeMutableRawPointer(mutating: base + nonceLength + bodyLength)
            guard
                EVP_CIPHER_CTX_ctrl(context, EVP_CTRL_AEAD_SET_TAG, Int32(tagLength), tag) == 1
            else { return false }
            var final: Int32 = 0
            let finished = plaintext.withUnsafeMutableBufferPointer { out in
                EVP_DecryptFinal_ex(context, out.baseAddress.map { $0 + Int(written) }, &final)
            }
            return finished == 1
        }
        guard ok else {
            SecretBytes.cleanse(&plaintext)
            throw KeychainError(
                .decode, "\(what) failed its integrity check (tampered with, or a wrong key)")
        }
        plaintext.removeLast(16)
        return plaintext
    }

    // MARK: - HMAC and scrypt

    /// HMAC-SHA256 of `message` under `key`.
    static func hmacSHA256(key: SecretBytes, message: [UInt8]) throws -> [UInt8] {
        var output = [UInt8](repeating: 0, count: 32)
        var length = 0
        let result = key.bytes.withUnsafeBufferPointer { keyBuffer in
            message.withUnsafeBufferPointer { messageBuffer in
                output.withUnsafeMutableBufferPointer { out in
                    EVP_Q_mac(
                        nil, "HMAC", nil, "SHA256", nil, keyBuffer.baseAddress, keyBuffer.count,
                        messageBuffer.baseAddress, messageBuffer.count, out.baseAddress, out.count,
                        &length)
                }
            }
        }
        guard result != nil, length == 32 else {
            throw KeychainError(.io, "HMAC-SHA256 failed")
        }
        return output
    }

    /// A 32-byte subkey of `key` for one purpose (HKDF-Expand with a single block:
    /// HMAC-SHA256(key, label ‖ 0x01)).
    static func deriveKey(from key: SecretBytes, label: String) throws -> SecretBytes {
        SecretBytes(try hmacSHA256(key: key, message: Array(label.utf8) + [1]))
    }

    /// The 32-byte key scrypt derives from `passphrase` and `salt`.
    static func scrypt(passphrase: [UInt8], salt: [UInt8], parameters: ScryptParameters) throws
        -> SecretBytes
    {
        try parameters.validate()
        guard !passphrase.isEmpty else {
            throw KeychainError(.param, "the passphrase is empty")
        }
        var key = [UInt8](repeating: 0, count: keyLength)
        let result = passphrase.withUnsafeBufferPointer { pass in
            pass.withMemoryRebound(to: CChar.self) { characters in
                key.withUnsafeMutableBufferPointer { out in
                    EVP_PBE_scrypt(
                        characters.baseAddress, characters.count, salt, salt.count,
                        parameters.n, UInt64(parameters.r), UInt64(parameters.p),
                        parameters.memoryLimit, out.baseAddress, out.count)
                }
            }
        }
        guard result == 1 else {
            SecretBytes.cleanse(&key)
            throw KeychainError(.io, "scrypt key derivation failed (\(parameters))")
        }
        return SecretBytes(key)
    }
}
