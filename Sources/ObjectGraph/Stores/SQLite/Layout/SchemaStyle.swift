/// How Core Data of a given framework version (`NSPersistenceFrameworkVersion`) writes the
/// indexes and uniqueness constraints of a store's schema. Tables, columns, foreign-key,
/// `Z_ENT` and join-table indexes are the same in every style.
///
/// | Style | Framework versions | Indexed attribute / compound index | Uniqueness constraint |
/// |---|---|---|---|
/// | ``legacy`` | before 849 | `ZTABLE_ZCOL_INDEX` / `ZTABLE_ZA_ZB` | `CONSTRAINT ZA_ZB UNIQUE (ZA, ZB)` in `CREATE TABLE` |
/// | ``fetchIndexes`` | 849 to 999 | `Z_<Entity>_by<Name>Index` / `Z_<Entity>_compoundIndex` | `ZA VARCHAR UNIQUE` (one property), `CONSTRAINT` (several) |
/// | ``uniqueIndexes`` | 1000 and later | as ``fetchIndexes`` | `CREATE UNIQUE INDEX Z_<Entity>_UNIQUE_<a>_<b>` |
///
/// Evidence: fw 637 and MoneyWell stores for the legacy names (research notes §8), knowledgeC
/// (fw 851, macOS 10.13, the release that brought fetch indexes) for fetch-index names beside a
/// column `UNIQUE`, the corpus stores of fw 977–1145 for the foreign-key, `Z_ENT` and join-table
/// indexes, and published schemas of recent Core Data for `Z_<Entity>_UNIQUE_…` unique indexes.
/// Where the switches fall between those samples is our choice: 849 is the first iOS 11 build
/// number seen, 1000 the line issue 20 draws for "recent" Core Data.
///
/// ```swift
/// SchemaStyle(frameworkVersion: 637)   // .legacy
/// SchemaStyle(frameworkVersion: 1145)  // .uniqueIndexes
/// ```
public enum SchemaStyle: Sendable, Hashable, CaseIterable {
    /// Per-attribute indexes named after the table and columns; uniqueness as table
    /// constraints.
    case legacy
    /// Fetch indexes (`Z_<Entity>_<name>`, `COLLATE BINARY`); uniqueness inside
    /// `CREATE TABLE`.
    case fetchIndexes
    /// Fetch indexes, and every uniqueness constraint a `UNIQUE` index of its own.
    case uniqueIndexes

    /// The first framework version of the fetch-index style.
    public static let fetchIndexesVersion = 849
    /// The first framework version that writes uniqueness constraints as unique indexes.
    public static let uniqueIndexesVersion = 1000

    /// The style Core Data of `frameworkVersion` writes.
    public init(frameworkVersion: Int) {
        if frameworkVersion >= Self.uniqueIndexesVersion {
            self = .uniqueIndexes
        } else if frameworkVersion >= Self.fetchIndexesVersion {
            self = .fetchIndexes
        } else {
            self = .legacy
        }
    }
}
