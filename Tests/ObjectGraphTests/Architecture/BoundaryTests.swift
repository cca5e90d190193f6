import Foundation
import Testing

/// The architecture's boundaries, one entry a rule. A layer is a first folder under
/// `Sources/ObjectGraph` (`Stores/SQLite/Query` is `Stores`); a file names a type when it spells
/// the name of a type declared at file scope in another layer (comments, strings and members
/// after a `.` do not count; nor does a name also declared in an allowed layer).
private let boundaryRules: [BoundaryRule] = [
    .names(
        "Model, Value and Predicate name no Schema, Context, Fetch, Coordinator, Stores or Migration type",
        ["Model", "Value", "Predicate"],
        mustNotName: [
            "Schema", "Context", "Fetch", "Batch", "Coordinator", "Stores", "Migration",
        ],
        "the model, values and predicates know nothing of contexts, objects or stores"),
    .names(
        "Schema names no Context, Fetch, Coordinator, Stores or Migration type", ["Schema"],
        mustNotName: ["Context", "Fetch", "Batch", "Coordinator", "Stores", "Migration"],
        "the schema is the model's runtime form; it knows the model only"),
    .names(
        "Errors name no Schema, Context, Fetch, Coordinator or Stores type", ["Errors"],
        mustNotName: [
            "Schema", "Context", "Fetch", "Batch", "Coordinator", "Stores", "Migration",
        ],
        "errors every layer throws depend on nothing above the model"),
    .names(
        "Migration names no Context, Fetch, Coordinator or Stores type", ["Migration"],
        mustNotName: ["Context", "Fetch", "Batch", "Coordinator", "Stores"],
        "mapping models, inference and the row-level migration know models and values only;"
            + " the coordinator and the stores run them"),
    .names(
        "Coordinator names no Context, Fetch or Batch type", ["Coordinator"],
        mustNotName: ["Context", "Fetch", "Batch"],
        "the coordinator declares what stores offer and receive; it never names the context or"
            + " its objects"),
    .names(
        "Stores name no Context, Fetch or Batch type", ["Stores"],
        mustNotName: ["Context", "Fetch", "Batch"],
        "stores speak only the coordinator's types; never the context, its objects, its"
            + " registrar, link or arena"),
    .names(
        "Context, Fetch and Batch name no Stores type", ["Context", "Fetch", "Batch"],
        mustNotName: ["Stores"],
        "contexts reach stores only through StoreCoordinator and never name a concrete store"),
    .identifiers(
        "Context, Fetch and Batch reach stores only through StoreCoordinator's methods",
        ["Context", "Fetch", "Batch"],
        mustNotSpell: [
            "withStoresLocked", "PersistentStore", "RowDecodingStore", "SQLQueryingStore",
            "rowDecoding", "sqlQuerying",
        ],
        "the coordinator's lock and its stores are its own: ask it (fetch, count, rows, save, …)"
            + " and let it route to the store"),
    .casts(
        "No cast to a …Store type of Stores or Coordinator outside them",
        [
            "Model", "Value", "Predicate", "Schema", "Errors", "Context", "Fetch", "Batch",
            "Migration",
        ],
        mustNotCastTo: ["Stores", "Coordinator"], endingWith: "Store",
        "a store's extra abilities are protocols it adopts, never downcasts"),
    .casts(
        "Coordinator casts to no Stores type", ["Coordinator"], mustNotCastTo: ["Stores"],
        "a store's extra abilities are protocols it adopts, never downcasts"),
    .names(
        "Model, Value, Predicate, Schema, Errors and Migration name no History type",
        ["Model", "Value", "Predicate", "Schema", "Errors", "Migration"],
        mustNotName: ["History"],
        "persistent history is recorded and read above the model; the model knows nothing of it"),
    .names(
        "History names no Stores type", ["History"], mustNotName: ["Stores"],
        "history's requests, tokens and merging reach the stores only through StoreCoordinator"),
    .identifiers(
        "History reaches stores only through StoreCoordinator's methods", ["History"],
        mustNotSpell: [
            "withStoresLocked", "PersistentStore", "RowDecodingStore", "SQLQueryingStore",
            "HistoryStore", "rowDecoding", "sqlQuerying",
        ],
        "the coordinator's lock and its stores are its own: ask it (fetchHistory, deleteHistory,"
            + " currentHistoryToken) and let it route to the store"),
    .casts(
        "History casts to no …Store type of Stores or Coordinator", ["History"],
        mustNotCastTo: ["Stores", "Coordinator"], endingWith: "Store",
        "a store's extra abilities are protocols it adopts, never downcasts"),
    .identifiers(
        "Only the PostgreSQL store (Stores/Postgres) speaks PostgresClient",
        [
            "Model", "Value", "Predicate", "Schema", "Errors", "Context", "Fetch", "Batch",
            "Migration", "Coordinator",
        ],
        mustNotSpell: [
            "PostgresConnection", "PostgresURL", "PostgresValue", "PostgresRow", "PostgresResult",
            "PostgresIdentifier", "PostgresError",
        ],
        "connections, URLs and SQL of a PostgreSQL server stay inside its store; the coordinator"
            + " only opens a PostgresStore by URL and sees StoreError"),
]

extension BoundaryRule: CustomTestStringConvertible {
    var testDescription: String { name }
}

/// Reads `Sources/ObjectGraph` and fails, at the offending file and line, wherever a layer names
/// (or casts to) a type it must not.
@Suite struct BoundaryTests {
    /// The sources' folder, relative to the package root.
    static let root = "Sources/ObjectGraph/"
    /// The sources' folder.
    static let sourceFolder = TestSupport.packageRoot.appendingPathComponent(root)

    /// Every Swift file of `Sources/ObjectGraph`, by path relative to it (empty text when it
    /// cannot be read).
    static let sources: [(path: String, text: String)] = {
        guard let walker = FileManager.default.enumerator(atPath: sourceFolder.path) else {
            return []
        }
        var files: [(path: String, text: String)] = []
        while let path = walker.nextObject() as? String {
            guard path.hasSuffix(".swift") else { continue }
            let url = sourceFolder.appendingPathComponent(path)
            files.append((path, (try? String(contentsOf: url, encoding: .utf8)) ?? ""))
        }
        return files.sorted { $0.path < $1.path }
    }()

    /// Every violation of every rule, found once for all the rules' tests.
    static let violations = BoundaryChecker.violations(in: sources, rules: boundaryRules)

    @Test("Every boundary holds", arguments: boundaryRules)
    func boundaryHolds(_ rule: BoundaryRule) throws {
        try #require(!Self.sources.isEmpty, "no Swift file in \(Self.sourceFolder.path)")
        let unread = Self.sources.filter(\.text.isEmpty).map(\.path)
        try #require(unread.isEmpty, "empty or unreadable: \(unread)")
        for violation in Self.violations where violation.rule == rule.name {
            let path = Self.root + violation.path
            Issue.record(
                Comment(rawValue: violation.message(root: Self.root)),
                sourceLocation: Testing.SourceLocation(
                    fileID: "ObjectGraph/\((path as NSString).lastPathComponent)",
                    filePath: TestSupport.packageRoot.appendingPathComponent(path).path,
                    line: violation.line, column: violation.column))
        }
    }

    @Test func everyLayerFolderHasARule() throws {
        let folders = try FileManager.default.contentsOfDirectory(atPath: Self.sourceFolder.path)
            .filter { name in
                var isFolder: ObjCBool = false
                let path = Self.sourceFolder.appendingPathComponent(name).path
                // A DocC catalog (ObjectGraph.docc) holds documentation, no code: no layer.
                return FileManager.default.fileExists(atPath: path, isDirectory: &isFolder)
                    && isFolder.boolValue && !name.hasSuffix(".docc")
            }
        #expect(!folders.isEmpty, "no folder in \(Self.sourceFolder.path)")
        let covered = Set(boundaryRules.flatMap(\.layers))
        for folder in folders.sorted() where !covered.contains(folder) {
            Issue.record(
                """
                \(Self.root)\(folder) is a layer no boundary rule covers: add it to the \
                table in BoundaryTests.swift
                """)
        }
    }

    @Test func scannerFindsOnlyTheRealName() {
        let files: [(path: String, text: String)] = [
            (
                "Context/Y.swift",
                """
                /// A context.
                public final class ManagedContext {
                    struct Element {}
                }
                @frozen public struct ManagedObject {}
                fileprivate struct SlotBlock {}
                """
            ),
            (
                "Stores/X.swift",
                #"""
                // A ManagedContext in a comment.
                /* A /* nested ManagedContext */ ManagedContext */
                struct X<ManagedObject> {
                    let label = "ManagedContext"
                    let raw = #"a "ManagedContext" \(ManagedContext)"#
                    let text = """
                        ManagedContext \(label) "ManagedContext"
                        """
                    let element: Element
                    let block: SlotBlock
                    var link: Int { store.ManagedContext }
                    func take(_ object: ManagedObject, into context: ManagedContext) {}
                }
                """#
            ),
        ]
        let violations = BoundaryChecker.violations(in: files, rules: boundaryRules)
        #expect(violations.count == 1, "\(violations)")
        let violation = violations.first
        #expect(violation?.path == "Stores/X.swift")
        #expect(violation?.line == 12)
        #expect(violation?.name == "ManagedContext")
        #expect(violation?.declaredIn == "Context/Y.swift")
        #expect(violation?.rule == "Stores name no Context, Fetch or Batch type")
        #expect(violation?.column == 54)
    }

    @Test func scannerFindsCastsToStores() {
        let files: [(path: String, text: String)] = [
            (
                "Stores/S.swift",
                """
                public final class SQLiteStore {}
                protocol AtomicStore {}
                struct StoreLayout {}
                """
            ),
            ("Coordinator/P.swift", "protocol PersistentStore {}"),
            (
                "Fetch/F.swift",
                """
                func f(_ store: any PersistentStore) {
                    _ = store as? ObjectGraph.SQLiteStore
                    _ = store is any AtomicStore
                    _ = (store as PersistentStore, store as? String)
                }
                """
            ),
            (
                "Coordinator/C.swift",
                """
                func g(_ store: any PersistentStore) {
                    switch store {
                    case let layout as StoreLayout: _ = layout
                    default: break
                    }
                }
                """
            ),
        ]
        let found = BoundaryChecker.violations(in: files, rules: boundaryRules)
            .filter(\.isCast).map { "\($0.path):\($0.line) \($0.name)" }
        #expect(
            found == [
                "Fetch/F.swift:2 SQLiteStore", "Fetch/F.swift:3 AtomicStore",
                "Coordinator/C.swift:3 StoreLayout",
            ])
    }

    @Test func scannerFindsStoreAccessFromContexts() {
        let files: [(path: String, text: String)] = [
            ("Coordinator/C.swift", "final class StoreCoordinator {}"),
            (
                "Context/X.swift",
                """
                // withStoresLocked in a comment is fine.
                func f(_ coordinator: StoreCoordinator) {
                    coordinator.withStoresLocked { stores in _ = stores }
                    _ = "withStoresLocked"
                }
                """
            ),
        ]
        let found = BoundaryChecker.violations(in: files, rules: boundaryRules)
            .map { "\($0.path):\($0.line):\($0.column) \($0.name)" }
        #expect(found == ["Context/X.swift:3:17 withStoresLocked"])
    }
}
