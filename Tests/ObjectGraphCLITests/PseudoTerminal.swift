import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Runs `executable` with its standard error on a new pseudo-terminal (so `isatty(2)` is true
/// in it) and its standard output on a pipe; returns its exit status, what it wrote to
/// standard output and what reached the terminal.
func runWithTerminalStandardError(_ executable: URL, _ arguments: [String]) throws -> (
    status: Int32, output: String, terminal: String
) {
    // posix_openpt and friends are not in Swift's Glibc module (they need _XOPEN_SOURCE):
    // found in the C library by name.
    let library = dlopen(nil, RTLD_NOW)
    func function<T>(_ name: String, as type: T.Type) -> T? {
        dlsym(library, name).map { unsafeBitCast($0, to: type) }
    }
    typealias Open = @convention(c) (Int32) -> Int32
    typealias Name = @convention(c) (Int32) -> UnsafeMutablePointer<CChar>?
    guard let openTerminal = function("posix_openpt", as: Open.self),
        let grant = function("grantpt", as: Open.self),
        let unlock = function("unlockpt", as: Open.self),
        let slaveName = function("ptsname", as: Name.self)
    else { throw POSIXError(.ENOSYS) }
    let master = openTerminal(O_RDWR | O_NOCTTY)
    guard master >= 0, grant(master) == 0, unlock(master) == 0, let name = slaveName(master)
    else {
        throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
    }
    defer { close(master) }
    let slave = open(String(cString: name), O_RDWR | O_NOCTTY)
    guard slave >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
    let terminal = FileHandle(fileDescriptor: slave, closeOnDealloc: false)
    let process = Process()
    process.executableURL = executable
    process.arguments = arguments
    let output = Pipe()
    process.standardOutput = output
    process.standardError = terminal
    process.standardInput = FileHandle.nullDevice
    do {
        try process.run()
    } catch {
        close(slave)
        throw error
    }
    // Only the child holds the terminal now: reading ends (EIO) when it exits.
    close(slave)
    var received = Data()
    var buffer = [UInt8](repeating: 0, count: 4096)
    while true {
        let count = read(master, &buffer, buffer.count)
        if count > 0 {
            received.append(contentsOf: buffer[0..<count])
        } else if count < 0 && errno == EINTR {
            continue
        } else {
            break
        }
    }
    let printed = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (
        process.terminationStatus, String(decoding: printed, as: UTF8.self),
        String(decoding: received, as: UTF8.self)
    )
}
