import Foundation
import Keychain

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension KeychainCommand {
    /// The variable holding the passphrase.
    static let passphraseVariable = "OBJECTGRAPH_KEYCHAIN_PASSPHRASE"
    /// The variable setting log2(N) of scrypt when the command creates the keychain (tests).
    static let scryptCostVariable = "OBJECTGRAPH_KEYCHAIN_SCRYPT_LOG2N"

    /// Unlocks `store` with the passphrase when there is one (creating the keychain when
    /// `creating`); without a passphrase, leaves it to the key file.
    ///
    /// - Returns: an exit status to stop with, or nil to go on.
    static func unlock(_ store: KeychainStore, creating: Bool, io: CommandIO) throws -> Int32? {
        guard let passphrase = passphrase(io: io) else {
            let hasKeyFile = FileManager.default.fileExists(
                atPath: try store.location.keyFileURL.path)
            return hasKeyFile && !creating ? nil : needsPassphrase(io: io)
        }
        if creating {
            var scrypt = ScryptParameters.interactive
            if let text = io.environment[scryptCostVariable], let log2N = Int(text) {
                scrypt.log2N = log2N
            }
            if try store.unlock(passphrase: passphrase, createIfMissing: scrypt) {
                io.writeError("objectgraph keychain: created the keychain \(try store.location)\n")
            }
        } else {
            try store.unlock(passphrase: passphrase)
        }
        return nil
    }

    /// The exit status and hint when no passphrase can be had.
    static func needsPassphrase(io: CommandIO) -> Int32 {
        io.writeError(
            "error: the keychain needs its passphrase and standard input is not a terminal\n"
                + "hint: set \(passphraseVariable), or run 'objectgraph keychain' on a terminal\n")
        return ExitStatus.usage
    }

    /// The passphrase from the environment, else from a prompt without echo when standard
    /// input is a terminal (and the command runs on the real terminal), else nil.
    static func passphrase(io: CommandIO) -> String? {
        if let value = io.environment[passphraseVariable], !value.isEmpty {
            return value
        }
        guard io is StandardIO, isatty(STDIN_FILENO) == 1 else { return nil }
        return promptWithoutEcho("Keychain passphrase: ", io: io)
    }

    /// The password of `add-generic-password … -w`: asked twice without echo when standard
    /// input is a terminal (both must match), else the first line of standard input.
    static func askForPassword(io: CommandIO) -> Result<String, ParseError> {
        guard io is StandardIO, isatty(STDIN_FILENO) == 1 else {
            let read: InputLine?
            do {
                read = try io.readLine(maximumBytes: 64 * 1024)
            } catch {
                return .failure(ParseError(text: "-w: \(error)"))
            }
            switch read {
            case .line(let line) where !line.isEmpty:
                return .success(line)
            case .tooLong(let bytes):
                return .failure(
                    ParseError(text: "-w: the password line is \(bytes) bytes, more than 65536"))
            default:
                return .failure(ParseError(text: "-w: no password on standard input"))
            }
        }
        guard let first = promptWithoutEcho("password data for new item: ", io: io) else {
            return .failure(ParseError(text: "-w: no password entered"))
        }
        guard promptWithoutEcho("retype password for new item: ", io: io) == first else {
            return .failure(ParseError(text: "-w: the passwords do not match"))
        }
        return .success(first)
    }

    /// Reads a line from the terminal with echo turned off (termios), restoring it after.
    private static func promptWithoutEcho(_ prompt: String, io: CommandIO) -> String? {
        var original = termios()
        guard tcgetattr(STDIN_FILENO, &original) == 0 else { return nil }
        var silent = original
        silent.c_lflag &= ~tcflag_t(ECHO)
        io.writeError(prompt)
        guard tcsetattr(STDIN_FILENO, TCSAFLUSH, &silent) == 0 else { return nil }
        let line = Swift.readLine(strippingNewline: true)
        tcsetattr(STDIN_FILENO, TCSAFLUSH, &original)
        io.writeError("\n")
        guard let line, !line.isEmpty else { return nil }
        return line
    }
}
