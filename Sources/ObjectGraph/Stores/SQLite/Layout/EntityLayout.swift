/// Where one entity's objects live: its number, its table and the columns of its persistent
/// properties (declared and inherited).
///
/// ```swift
/// let student = layout.entity(named: "Student")
/// student?.entityNumber           // 6
/// student?.tableName              // "ZPERSON"
/// student?.coveredEntityNumbers   // [6]: a fetch of Student reads rows with Z_ENT IN (6)
/// ```
public struct EntityLayout: Sendable, Hashable {
    /// The entity's name.
    public let name: String
    /// Its `Z_ENT` number.
    public let entityNumber: Int
    /// Its parent's `Z_ENT`, 0 for a root entity (`Z_PRIMARYKEY.Z_SUPER`).
    public let superNumber: Int
    /// The name of the root of its inheritance tree.
    public let rootName: String
    /// The table holding its rows: `Z` + the upper-cased root name.
    public let tableName: String
    /// Whether it is abstract (no row has its number).
    public let isAbstract: Bool
    /// Its own number and those of all its subentities, ascending: the `Z_ENT` values a fetch
    /// of this entity matches.
    public let coveredEntityNumbers: [Int]
    /// The numbers of its direct subentities, ascending.
    public let subentityNumbers: [Int]
    /// The column of every persistent attribute, declared or inherited, by attribute name.
    public let attributeColumns: [String: Column]
    /// The storage of every persistent relationship, declared or inherited, by name.
    public let relationships: [String: RelationshipStorage]

    /// Whether the entity has subentities.
    public var hasSubentities: Bool { !subentityNumbers.isEmpty }
}
