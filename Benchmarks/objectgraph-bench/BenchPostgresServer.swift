import Foundation

/// The benchmark's own PostgreSQL server, started as the tests start theirs: `initdb` into a
/// temporary folder (trust authentication, UTF-8, C locale), `pg_ctl start` listening only on
/// a Unix socket in that folder, one database made; stopped (an immediate shutdown) and
/// removed by ``stop()``. Under root the server runs as the `postgres` user (`initdb` refuses
/// root). The server binaries are found in `$POSTGRES_BIN`, else the newest
/// `/usr/lib/postgresql/<version>/bin`, else `/usr/bin`.
///
/// The server runs with `fsync=off`, `synchronous_commit=off` and `full_page_writes=off`, as
/// the tests' server: both sides of every measurement share it, so the ratios compare the
/// client work, not the disk.
final class BenchPostgresServer {
    let folder: URL
    let database = "objectgraph_bench"
    let user: String

    /// The database's URL over the server's socket (no schema).
    var url: String { "postgresql:///\(database)?host=\(folder.path)&user=\(user)" }

    private static let asRoot = getuid() == 0

    /// Starts a server; throws what failed, with the end of the server's log.
    init() throws {
        let binaries = try Self.binaries()
        var template = Array(
            (NSTemporaryDirectory() as NSString).appendingPathComponent("og-bench-pg-XXXXXX")
                .utf8CString)
        guard let made = mkdtemp(&template) else {
            throw BenchError.failed("cannot make a temporary folder: errno \(errno)")
        }
        folder = URL(fileURLWithPath: String(cString: made))
        user = Self.asRoot ? "postgres" : (ProcessInfo.processInfo.environment["USER"] ?? "")
        let data = folder.appendingPathComponent("data").path
        let log = folder.appendingPathComponent("server.log").path
        do {
            if Self.asRoot { try Self.spawn(["/bin/chown", "-R", "postgres", folder.path]) }
            try Self.spawn(
                server: [
                    binaries + "/initdb", "-D", data, "-A", "trust", "-U", user, "-E", "UTF8",
                    "--locale=C", "--no-sync",
                ])
            try Self.spawn(
                server: [
                    binaries + "/pg_ctl", "-D", data, "-l", log, "-w", "-t", "60", "-o",
                    "-c listen_addresses='' -k \(folder.path) -c fsync=off"
                        + " -c synchronous_commit=off -c full_page_writes=off", "start",
                ])
            try Self.spawn(server: [
                binaries + "/createdb", "-h", folder.path, "-U", user, database,
            ])
        } catch {
            let text = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
            stop()
            throw BenchError.failed(
                "PostgreSQL could not be started: \(error)\n\(text.suffix(1500))")
        }
    }

    /// Stops the server (SIGQUIT to the postmaster, waiting up to ten seconds) and removes
    /// its folder.
    func stop() {
        let pidFile = folder.appendingPathComponent("data/postmaster.pid").path
        if let text = try? String(contentsOfFile: pidFile, encoding: .utf8),
            let line = text.split(separator: "\n").first, let pid = pid_t(line), pid > 0
        {
            kill(pid, SIGQUIT)
            for _ in 0..<1000 where kill(pid, 0) == 0 { usleep(10_000) }
        }
        try? FileManager.default.removeItem(at: folder)
    }

    private static func binaries() throws -> String {
        if let path = ProcessInfo.processInfo.environment["POSTGRES_BIN"] { return path }
        let versions =
            ((try? FileManager.default.contentsOfDirectory(atPath: "/usr/lib/postgresql")) ?? [])
            .compactMap(Int.init).sorted(by: >)
        let folders = versions.map { "/usr/lib/postgresql/\($0)/bin" } + ["/usr/bin"]
        guard
            let found = folders.first(where: {
                FileManager.default.isExecutableFile(atPath: $0 + "/initdb")
            })
        else {
            throw BenchError.failed(
                "no PostgreSQL server binaries (initdb, pg_ctl): install Debian's postgresql"
                    + " package or set POSTGRES_BIN, or give --url")
        }
        return found
    }

    /// Runs `argv` as the server's user (`runuser -u postgres` under root).
    private static func spawn(server argv: [String]) throws {
        try spawn(asRoot ? ["/usr/sbin/runuser", "-u", "postgres", "--"] + argv : argv)
    }

    /// Runs `argv` with posix_spawn, its output in a file (the server keeps inherited
    /// descriptors open, so no pipe), and throws its output when it fails.
    private static func spawn(_ argv: [String]) throws {
        let output = NSTemporaryDirectory() + "/og-bench-pg-\(getpid())-\(UUID().uuidString)"
        defer { unlink(output) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, output, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        let arguments = argv.map { strdup($0) }
        defer { for pointer in arguments { free(pointer) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, argv[0], &actions, nil, arguments + [nil], environ)
        guard spawned == 0 else {
            throw BenchError.failed("cannot start \(argv[0]): errno \(spawned)")
        }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        guard status == 0 else {
            let text = (try? String(contentsOfFile: output, encoding: .utf8)) ?? ""
            throw BenchError.failed("\(argv.joined(separator: " ")) failed (\(status)): \(text)")
        }
    }
}
