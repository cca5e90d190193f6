/// The migration policy classes a mapping model may name, by class name (Core Data finds them
/// with `NSClassFromString`; Swift registers them). Thread-safe.
///
/// A name is looked up as written, then without its module prefix (`MyApp.ItemPolicy` finds
/// `ItemPolicy`). `NSEntityMigrationPolicy` is the default policy.
///
/// ```swift
/// MigrationPolicyRegistry.shared.register(ItemPolicy.self, as: "Advanced_EvolutionDemo_V2_FromV1MigrationPolicy")
/// let manager = MigrationManager(mapping: mapping)   // uses the shared registry
/// ```
public final class MigrationPolicyRegistry: Sendable {
    /// The registry managers use unless given another.
    public static let shared = MigrationPolicyRegistry()

    private let types = Locked<[String: EntityMigrationPolicy.Type]>([
        "NSEntityMigrationPolicy": EntityMigrationPolicy.self
    ])

    /// Creates an empty registry (it knows only `NSEntityMigrationPolicy`).
    public init() {}

    /// Registers `type` under `className`, replacing what was registered under it.
    public func register(_ type: EntityMigrationPolicy.Type, as className: String) {
        types.withLock { $0[className] = type }
    }

    /// Removes what is registered under `className`.
    public func unregister(_ className: String) {
        types.withLock { $0[className] = nil }
    }

    /// The type registered under `className` (or under its last dot-separated component).
    public func policyType(named className: String) -> EntityMigrationPolicy.Type? {
        types.withLock { types in
            if let type = types[className] { return type }
            guard let dot = className.lastIndex(of: ".") else { return nil }
            return types[String(className[className.index(after: dot)...])]
        }
    }

    /// A new policy for `mapping`: its class's, or the default policy when it names none.
    /// - Throws: ``MigrationError/unknownMigrationPolicy(className:mapping:)``.
    public func makePolicy(for mapping: EntityMapping) throws(MigrationError)
        -> EntityMigrationPolicy
    {
        guard let className = mapping.migrationPolicyClassName, !className.isEmpty else {
            return EntityMigrationPolicy()
        }
        guard let type = policyType(named: className) else {
            throw .unknownMigrationPolicy(className: className, mapping: mapping.name)
        }
        return type.init()
    }
}
