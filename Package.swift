// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "ObjectGraph",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "ObjectGraph", targets: ["ObjectGraph"]),
        .library(name: "SQLiteDatabase", targets: ["SQLiteDatabase"]),
        .library(name: "PostgresClient", targets: ["PostgresClient"]),
        .library(name: "AppContainer", targets: ["AppContainer"]),
        .library(name: "Preferences", targets: ["Preferences"]),
        .library(name: "Archive", targets: ["Archive"]),
        .library(name: "KeyedArchive", targets: ["KeyedArchive"]),
        .library(name: "Keychain", targets: ["Keychain"]),
        .executable(name: "objectgraph", targets: ["objectgraph"]),
        .plugin(name: "ObjectGraphCodegen", targets: ["ObjectGraphCodegen"]),
    ],
    targets: [
        // System libraries (Debian: libsqlite3-dev, libxml2-dev, libssl-dev, libpq-dev).
        .systemLibrary(
            name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
        .systemLibrary(
            name: "CLibXML2", pkgConfig: "libxml-2.0", providers: [.apt(["libxml2-dev"])]),
        .systemLibrary(
            name: "COpenSSL", pkgConfig: "libcrypto", providers: [.apt(["libssl-dev"])]),
        .systemLibrary(name: "CLibPQ", pkgConfig: "libpq", providers: [.apt(["libpq-dev"])]),

        // Libraries.
        .target(name: "SQLiteDatabase", dependencies: ["CSQLite"]),
        // A thin layer over libpq: URLs, bound parameters, typed rows and errors.
        .target(name: "PostgresClient", dependencies: ["CLibPQ"]),
        .target(
            name: "ObjectGraph",
            dependencies: [
                "CLibXML2", "COpenSSL", "SQLiteDatabase", "PostgresClient", "Archive",
                "KeyedArchive",
            ]),
        .target(name: "AppContainer"),
        .target(name: "Preferences", dependencies: ["AppContainer", "Archive", "KeyedArchive"]),
        .target(name: "Archive", dependencies: ["KeyedArchive"]),
        // Binary property lists and NSKeyedArchiver archives, read without trusting them.
        .target(name: "KeyedArchive"),
        .target(
            name: "Keychain",
            dependencies: ["SQLiteDatabase", "COpenSSL", "AppContainer", "Archive"]),

        // The command-line tool: a library with the commands (tested directly) and a thin main.
        .target(
            name: "ObjectGraphCLI",
            dependencies: ["ObjectGraph", "AppContainer", "Preferences", "Keychain"]),
        .executableTarget(name: "objectgraph", dependencies: ["ObjectGraphCLI"]),
        // Build-tool plugin: generates the classes of a target's .xcdatamodeld at build time.
        .plugin(
            name: "ObjectGraphCodegen", capability: .buildTool(), dependencies: ["objectgraph"]),

        // Examples.
        .executableTarget(
            name: "School", dependencies: ["ObjectGraph"], path: "Examples/School",
            plugins: ["ObjectGraphCodegen"]),
        .executableTarget(
            name: "Importer", dependencies: ["ObjectGraph"], path: "Examples/Importer"),
        .executableTarget(
            name: "Settings", dependencies: ["AppContainer", "Preferences", "Archive"],
            path: "Examples/Settings"),
        .executableTarget(
            name: "Login", dependencies: ["Keychain", "Preferences", "AppContainer"],
            path: "Examples/Login"),
        .executableTarget(
            name: "objectgraph-bench",
            dependencies: ["ObjectGraph", "SQLiteDatabase", "CSQLite", "CLibPQ"],
            path: "Benchmarks/objectgraph-bench"),

        // Tests.
        .testTarget(
            name: "ObjectGraphTests",
            dependencies: ["ObjectGraph", "KeyedArchive", "PostgresClient"]),
        .testTarget(name: "ObjectGraphCLITests", dependencies: ["ObjectGraphCLI", "ObjectGraph"]),
        .testTarget(name: "SQLiteDatabaseTests", dependencies: ["SQLiteDatabase"]),
        .testTarget(name: "AppContainerTests", dependencies: ["AppContainer"]),
        .testTarget(
            name: "PreferencesTests", dependencies: ["Preferences", "AppContainer", "Archive"]),
        .testTarget(name: "ArchiveTests", dependencies: ["Archive"]),
        .testTarget(name: "KeyedArchiveTests", dependencies: ["KeyedArchive"]),
        .testTarget(
            name: "KeychainTests", dependencies: ["Keychain", "AppContainer", "SQLiteDatabase"]),
    ],
    swiftLanguageModes: [.v6]
)
