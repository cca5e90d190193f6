import Foundation
import Keychain
import Testing

/// The built `objectgraph` executable, if there is one.
let objectgraphBinary: URL? = {
    var candidates: [URL] = []
    let exe = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
    candidates.append(exe.deletingLastPathComponent().appendingPathComponent("objectgraph"))
    if let first = CommandLine.arguments.first {
        let runner = URL(fileURLWithPath: first).resolvingSymlinksInPath()
        candidates.append(runner.deletingLastPathComponent().appendingPathComponent("objectgraph"))
    }
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
    candidates.append(root.appendingPathComponent(".build/debug/objectgraph"))
    return candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) }
}()

/// Runs `objectgraph keychain <arguments>` with the fixture's environment and the passphrase.
private func keychainProcess(_ arguments: [String], fixture: KeychainFixture) throws -> Process {
    let binary = try #require(objectgraphBinary)
    let process = Process()
    process.executableURL = binary
    process.arguments = ["keychain"] + arguments
    var environment = fixture.environment
    environment["OBJECTGRAPH_KEYCHAIN_PASSPHRASE"] = KeychainFixture.passphrase
    environment["OBJECTGRAPH_KEYCHAIN_SCRYPT_LOG2N"] = "10"
    process.environment = environment
    return process
}

/// Runs a process to its end and returns its status and standard output.
private func runToEnd(_ process: Process) throws -> (status: Int32, output: String) {
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardError = FileHandle.nullDevice
    try process.run()
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: data, as: UTF8.self))
}

@Suite(.enabled(if: objectgraphBinary != nil, "the objectgraph executable is not built"))
struct KeychainProcessTests {
    @Test func itemsPersistAcrossProcesses() throws {
        let fixture = try KeychainFixture()
        defer { fixture.remove() }
        // Another process creates the keychain and adds an item.
        let add = try runToEnd(
            try keychainProcess(
                ["add-generic-password", "-s", "com.example.sync", "-a", "ada", "-w", "from-cli"],
                fixture: fixture))
        #expect(add.status == 0)
        // This process reads it (the CLI's items are in group "objectgraph").
        let store = fixture.store(
            KeychainApplication(identifier: "com.example.app", accessGroups: ["objectgraph"]))
        try store.unlock(passphrase: KeychainFixture.passphrase)
        let keychain = Keychain(service: "com.example.sync", store: store)
        #expect(try keychain.string(for: "ada") == "from-cli")
        // And writes one back, which a third process reads.
        try keychain.set("from-api", for: "ada")
        let find = try runToEnd(
            try keychainProcess(
                ["find-generic-password", "-s", "com.example.sync", "-a", "ada", "-w"],
                fixture: fixture))
        #expect(find.status == 0)
        #expect(find.output == "from-api\n")
    }

    @Test func concurrentWritersFromTwoProcessesLoseNothing() throws {
        let fixture = try KeychainFixture()
        defer { fixture.remove() }
        try fixture.store().create(passphrase: KeychainFixture.passphrase, scrypt: .fast)
        let rounds = 40
        let writers = try ["left", "right"].map { side -> Process in
            let process = try keychainProcess(
                [
                    "add-generic-password", "-s", "shared", "-a", side, "-w", "\(side)-secret",
                    "--repeat", "\(rounds)",
                ], fixture: fixture)
            process.standardError = FileHandle.nullDevice
            try process.run()
            return process
        }
        for writer in writers {
            writer.waitUntilExit()
            #expect(writer.terminationStatus == 0)
        }
        let keychain = Keychain(
            service: "shared", store: try fixture.unlockedStore(.owner()))
        let accounts = try keychain.allAccounts()
        #expect(accounts.count == 2 * rounds)
        for side in ["left", "right"] {
            for round in [0, rounds / 2, rounds - 1] {
                #expect(try keychain.string(for: "\(side)-\(round)") == "\(side)-secret")
            }
        }
    }
}
