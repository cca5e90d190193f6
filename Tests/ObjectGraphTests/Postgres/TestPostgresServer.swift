import Foundation
import PostgresClient

/// A private PostgreSQL server for the tests: `initdb` into a temporary folder, started by
/// `pg_ctl` listening only on a Unix socket in that folder (`listen_addresses=''`), one
/// database made. Started once per test process, on first use (``shared``), and stopped and
/// removed when the process exits; a folder left by a process that died is cleaned up by the
/// next start. Under root the server runs as the `postgres` user (`initdb` refuses root).
///
/// When the server cannot be started, ``require()`` throws the reason: the tests using it
/// fail, they never skip.
///
/// ```swift
/// let server = try TestPostgresServer.require()
/// try coordinator.addStore(type: .postgres, at: server.url(schema: "t_\(UUID())"))
/// ```
final class TestPostgresServer: Sendable {
    /// Why the server could not be started.
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// The folder holding the data directory, the socket and the log.
    let folder: URL
    /// The server's binaries.
    let binaries: URL
    /// The database the tests use.
    let database = "objectgraph_test"
    /// The user the tests connect as (the server's superuser).
    let user: String

    /// The server, started on first use.
    static let shared: Result<TestPostgresServer, Failure> = Result {
        () throws(Failure) -> TestPostgresServer in try start()
    }

    /// The shared server, or the reason it could not be started.
    static func require() throws -> TestPostgresServer { try shared.get() }

    /// The URL of the test database over the server's socket, with `schema` (when given).
    func url(schema: String? = nil) -> URL {
        var text = "postgresql:///\(database)?host=\(folder.path)&user=\(user)"
        if let schema { text += "&schema=\(schema)" }
        return URL(string: text) ?? folder
    }

    /// A fresh schema name (each test keeps its tables in its own schema).
    static func freshSchema(_ label: String = "t") -> String {
        label + "_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
    }

    private init(folder: URL, binaries: URL, user: String) {
        self.folder = folder
        self.binaries = binaries
        self.user = user
    }

    // MARK: - Starting and stopping

    private static let runsAsRoot = getuid() == 0

    private static func start() throws(Failure) -> TestPostgresServer {
        removeStaleFolders()
        let binaries = try findBinaries()
        let pattern = (NSTemporaryDirectory() as NSString).appendingPathComponent("og-pg-XXXXXX")
        var template = Array(pattern.utf8CString)
        guard let made = mkdtemp(&template) else {
            throw Failure(description: "cannot make a temporary folder: errno \(errno)")
        }
        let folder = URL(fileURLWithPath: String(cString: made))
        let user = runsAsRoot ? "postgres" : (ProcessInfo.processInfo.environment["USER"] ?? "")
        do {
            try "\(getpid())".write(
                to: folder.appendingPathComponent("owner.pid"), atomically: true, encoding: .utf8)
            if runsAsRoot {
                try run("/bin/chown", ["-R", "postgres", folder.path], asServerUser: false)
            }
            let data = folder.appendingPathComponent("data").path
            try run(
                binaries.appendingPathComponent("initdb").path,
                [
                    "-D", data, "-A", "trust", "-U", runsAsRoot ? "postgres" : user,
                    "-E", "UTF8", "--locale=C", "--no-sync",
                ])
            try run(
                binaries.appendingPathComponent("pg_ctl").path,
                [
                    "-D", data, "-l", folder.appendingPathComponent("server.log").path, "-w",
                    "-t", "60", "-o",
                    "-c listen_addresses='' -k \(folder.path) -c fsync=off"
                        + " -c synchronous_commit=off -c full_page_writes=off",
                    "start",
                ])
            registerStopAtExit(folder: folder)
            try run(
                binaries.appendingPathComponent("createdb").path,
                ["-h", folder.path, "-U", runsAsRoot ? "postgres" : user, "objectgraph_test"])
        } catch {
            let log =
                (try? String(
                    contentsOf: folder.appendingPathComponent("server.log"), encoding: .utf8)) ?? ""
            stop(folder: folder)
            throw Failure(
                description: "PostgreSQL could not be started: \(error)"
                    + (log.isEmpty ? "" : "\nserver log:\n" + log.suffix(2000)))
        }
        let server = TestPostgresServer(
            folder: folder, binaries: binaries, user: runsAsRoot ? "postgres" : user)
        return server
    }

    /// The folder of `initdb` and `pg_ctl`: `$POSTGRES_BIN`, else the newest
    /// `/usr/lib/postgresql/<version>/bin`, else the one `pg_config --bindir` names.
    private static func findBinaries() throws(Failure) -> URL {
        let manager = FileManager.default
        if let path = ProcessInfo.processInfo.environment["POSTGRES_BIN"] {
            return URL(fileURLWithPath: path)
        }
        let versions =
            ((try? manager.contentsOfDirectory(atPath: "/usr/lib/postgresql")) ?? [])
            .compactMap(Int.init).sorted()
        for version in versions.reversed() {
            let bin = "/usr/lib/postgresql/\(version)/bin"
            if manager.isExecutableFile(atPath: bin + "/initdb") {
                return URL(fileURLWithPath: bin)
            }
        }
        for bin in ["/usr/bin", "/usr/local/bin", "/usr/local/pgsql/bin"]
        where manager.isExecutableFile(atPath: bin + "/initdb") {
            return URL(fileURLWithPath: bin)
        }
        throw Failure(
            description: "no PostgreSQL server binaries (initdb, pg_ctl) in"
                + " /usr/lib/postgresql/*/bin or /usr/bin: install Debian's postgresql package"
                + " (apt-get install postgresql) or set POSTGRES_BIN")
    }

    /// Runs `tool` with `arguments` (as the `postgres` user when the tests run as root);
    /// throws its output when it fails. Spawned and awaited with `posix_spawn` and `waitpid`
    /// (Foundation's `Process` did not see `runuser` exit once `pg_ctl` had left the server
    /// running), its output in a file (the server keeps inherited descriptors open).
    private static func run(_ tool: String, _ arguments: [String], asServerUser: Bool = true)
        throws
    {
        let argv =
            runsAsRoot && asServerUser
            ? ["/usr/sbin/runuser", "-u", "postgres", "--", tool] + arguments : [tool] + arguments
        let outputPath = NSTemporaryDirectory() + "/og-pg-output-\(getpid())-\(UUID().uuidString)"
        defer { unlink(outputPath) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(
            &actions, 1, outputPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        let cArguments = argv.map { strdup($0) }
        defer { for pointer in cArguments { free(pointer) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, argv[0], &actions, nil, cArguments + [nil], environ)
        guard spawned == 0 else {
            throw Failure(description: "cannot start \(argv[0]): errno \(spawned)")
        }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        let exitCode = (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
        guard exitCode == 0 else {
            let text = (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? ""
            throw Failure(
                description: "\(tool) \(arguments.joined(separator: " ")) exited with status"
                    + " \(exitCode): \(text)")
        }
    }

    /// The folder whose server the exit handler stops.
    private static let running = RunningFolder()

    private static func registerStopAtExit(folder: URL) {
        running.set(folder.path)
        atexit {
            if let path = TestPostgresServer.running.take() {
                TestPostgresServer.stop(folder: URL(fileURLWithPath: path))
            }
        }
    }

    /// Stops the server of `folder` (an immediate shutdown: SIGQUIT to the postmaster, whose
    /// pid is the first line of `postmaster.pid`), waits up to ten seconds for it to go, and
    /// removes the folder. Runs at exit: no child process, no Foundation run loop.
    static func stop(folder: URL) {
        let pidFile = folder.appendingPathComponent("data/postmaster.pid")
        if let text = try? String(contentsOf: pidFile, encoding: .utf8),
            let line = text.split(separator: "\n").first, let pid = pid_t(line), pid > 0
        {
            kill(pid, SIGQUIT)
            for _ in 0..<1000 where kill(pid, 0) == 0 { usleep(10_000) }
        }
        try? FileManager.default.removeItem(at: folder)
    }

    /// Stops and removes the servers of earlier test processes that died without stopping
    /// theirs (their `owner.pid` names no live process).
    private static func removeStaleFolders() {
        let temporary = URL(fileURLWithPath: NSTemporaryDirectory())
        let names = (try? FileManager.default.contentsOfDirectory(atPath: temporary.path)) ?? []
        for name in names where name.hasPrefix("og-pg-") {
            let folder = temporary.appendingPathComponent(name)
            guard
                let text = try? String(
                    contentsOf: folder.appendingPathComponent("owner.pid"), encoding: .utf8),
                let owner = pid_t(text.trimmingCharacters(in: .whitespacesAndNewlines)),
                kill(owner, 0) != 0, errno == ESRCH
            else { continue }
            stop(folder: folder)
        }
    }
}

/// The folder of the running server, for the exit handler (set once, taken once).
private final class RunningFolder: @unchecked Sendable {
    private let lock = NSLock()
    private var path: String?

    func set(_ path: String) { lock.withLock { self.path = path } }

    func take() -> String? {
        lock.withLock {
            defer { path = nil }
            return path
        }
    }
}
