// Login: the classic sign-in flow on Linux — save a username and password in the keychain,
// read them back at the next launch, change the password, sign out — with the "remember me"
// choice kept in Preferences.
//
//   swift run Login
//
// It runs unattended (CI): the keychain and the preferences live under a fresh temporary
// XDG_DATA_HOME / XDG_CONFIG_HOME, the keychain passphrase is generated on the spot, and a key
// file shows how a background job reads "after first unlock" items without it. It prints what
// it does, never a secret.

import AppContainer
import Foundation
import Keychain
import Preferences

let identifier = "com.example.login"
let service = "com.example.login"

/// What the app remembers between launches, in Preferences.
enum PreferenceKey {
    static let rememberMe = "rememberMe"
    static let lastUsername = "lastUsername"
}

/// A launch of the app: its preferences and its keychain store, as a new process would open
/// them.
struct Launch {
    let preferences: Preferences
    let store: KeychainStore
    let keychain: Keychain

    init(environment: [String: String]) throws {
        preferences = try Preferences(identifier: identifier, environment: environment)
        preferences.register(defaults: [PreferenceKey.rememberMe: false])
        store = KeychainStore(
            environment: environment, application: KeychainApplication(identifier: identifier))
        keychain = Keychain(service: service, store: store, label: "Example login")
    }
}

func run() throws {
    let root = FileManager.default.temporaryDirectory
        .appendingPathComponent("ObjectGraph-Login-\(UUID().uuidString)", isDirectory: true)
    defer { try? FileManager.default.removeItem(at: root) }
    let environment = [
        "XDG_DATA_HOME": root.appendingPathComponent("data").path,
        "XDG_CONFIG_HOME": root.appendingPathComponent("config").path,
        "HOME": root.path,
    ]
    // A generated passphrase: the example needs no one at the keyboard.
    let passphrase = UUID().uuidString + UUID().uuidString

    var launch = try Launch(environment: environment)
    print("Login example")
    print("  keychain     \(try launch.store.location.databaseURL.path)")
    print("  preferences  \(launch.preferences.fileURL.path)")

    // 1. First launch: create the keychain.
    try launch.store.create(passphrase: passphrase, scrypt: .interactive)
    print("1. Created the keychain (scrypt \(ScryptParameters.interactive)), unlocked with a")
    print("   generated passphrase")

    // 2. Sign in with "remember me" on.
    let username = "ada"
    let password = "correct horse battery staple"
    launch.preferences.set(true, forKey: PreferenceKey.rememberMe)
    launch.preferences.set(username, forKey: PreferenceKey.lastUsername)
    try launch.preferences.synchronize()
    try launch.keychain.set(password, for: username)
    print("2. Signed in as \"\(username)\" with remember me on: saved a password of")
    print("   \(password.count) characters for service \(service)")

    // 3. Next launch: a new process reads the choice and the credentials back.
    launch = try Launch(environment: environment)
    try launch.store.unlock(passphrase: passphrase)
    guard launch.preferences.bool(forKey: PreferenceKey.rememberMe),
        let remembered = launch.preferences.string(forKey: PreferenceKey.lastUsername),
        let saved = try launch.keychain.string(for: remembered)
    else {
        throw KeychainError(.itemNotFound, "the remembered credentials are missing")
    }
    print("3. Relaunched: remember me is on, user \"\(remembered)\", password of")
    print("   \(saved.count) characters; matches what was typed: \(saved == password)")

    // 4. Change the password.
    let newPassword = "a much longer and better passphrase"
    try launch.keychain.set(newPassword, for: remembered)
    var query = KeychainQuery.genericPassword(service: service, account: remembered)
    query.returning = .attributes
    if let attributes = try launch.store.copyMatching(query).first?.attributes {
        print("4. Changed the password: item updated (created \(attributes.creationDate),")
        print("   modified \(attributes.modificationDate), label \"\(attributes.label ?? "")\")")
    }
    let reread = try Launch(environment: environment)
    try reread.store.unlock(passphrase: passphrase)
    let readsNew = try reread.keychain.string(for: username) == newPassword
    print("   a new launch reads the new password: \(readsNew)")

    // 5. A background job: a session token readable with the key file alone.
    var background = launch.keychain
    background.accessibility = .afterFirstUnlock
    try background.set(Data(UUID().uuidString.utf8), for: "session-token")
    try launch.store.createKeyFile()
    let job = try Launch(environment: environment)  // never given the passphrase
    let token = try job.keychain.data(for: "session-token")
    print("5. Background job with the key file only: session token read (\(token?.count ?? 0)")
    print("   bytes); the password stays out of reach:", terminator: " ")
    do {
        _ = try job.keychain.string(for: username)
        print("readable (unexpected)")
    } catch let error as KeychainError {
        print(error.status)
    }

    // 6. Sign out with remember me off: forget everything.
    launch.preferences.set(false, forKey: PreferenceKey.rememberMe)
    launch.preferences.removeObject(forKey: PreferenceKey.lastUsername)
    try launch.preferences.synchronize()
    let removed = try launch.keychain.removeAll()
    print("6. Signed out with remember me off: deleted \(removed) keychain items; accounts left:")
    let left = try launch.keychain.allAccounts()
    let rememberMe = launch.preferences.bool(forKey: PreferenceKey.rememberMe)
    print("   \(left), remember me: \(rememberMe)")
    launch.store.lock()
}

do {
    try run()
} catch {
    // Keychain errors never hold secrets.
    FileHandle.standardError.write(Data("Login failed: \(error)\n".utf8))
    exit(1)
}
