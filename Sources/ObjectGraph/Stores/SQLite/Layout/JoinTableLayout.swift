/// A join table (`Z_<n><NAME>`) of a many-to-many relationship pair, or of a to-many
/// relationship without an inverse.
///
/// For `A.r ↔ B.s` where A's number `a` is lower than B's number `b`, Core Data names the table
/// after `r` and each column after the relationship that points to the entity whose key it
/// holds: `Z_<a><R> (Z_<a><S>, Z_<b><R>)`, primary key on both, and an index on
/// `(Z_<b><R>, Z_<a><S>)` (`research/coredata-store-format.md` §6.4).
public struct JoinTableLayout: Sendable, Hashable {
    /// The table name (`Z_1BOOKS`).
    public let name: String
    /// The entity declaring the relationship the table is named after, and that relationship.
    public let entity: String, relationship: String
    /// The entity whose keys ``destinationColumn`` holds: the inverse's declaring entity, or the
    /// declared destination when there is no inverse.
    public let destinationEntity: String
    /// The inverse's declaring entity and name; `nil` for a to-many relationship without one.
    public let inverseEntity: String?, inverseRelationship: String?
    /// The column holding the `Z_PK` of the objects that own ``relationship``
    /// (`Z_<a><S>`).
    public let ownerColumn: String
    /// The column holding the `Z_PK` of ``relationship``'s destinations (`Z_<b><R>`).
    public let destinationColumn: String
    /// The order column of ``relationship`` when it is ordered: the destination's position in
    /// the owner's list.
    public let ownerOrderColumn: String?
    /// The order column of the inverse when it is ordered.
    public let inverseOrderColumn: String?
    /// The name of the index on `(destinationColumn, ownerColumn)`.
    public let indexName: String

    /// The columns in `CREATE TABLE` order.
    public var columns: [Column] {
        var result = [
            Column(name: ownerColumn, type: .integer, role: .joinKey(entity: entity)),
            Column(
                name: destinationColumn, type: .integer,
                role: .joinKey(entity: destinationEntity)),
        ]
        if let ownerOrderColumn {
            result.append(
                Column(
                    name: ownerOrderColumn, type: .integer,
                    role: .joinOrderKey(entity: entity, relationship: relationship)))
        }
        if let inverseOrderColumn, let inverseEntity, let inverseRelationship {
            result.append(
                Column(
                    name: inverseOrderColumn, type: .integer,
                    role: .joinOrderKey(entity: inverseEntity, relationship: inverseRelationship)
                ))
        }
        return result
    }

    init(
        name: String, entity: String, relationship: String, inverseEntity: String?,
        inverseRelationship: String?, ownerColumn: String, destinationColumn: String,
        ownerOrderColumn: String?, inverseOrderColumn: String?, indexName: String,
        destinationEntity: String
    ) {
        self.name = name
        self.entity = entity
        self.relationship = relationship
        self.inverseEntity = inverseEntity
        self.inverseRelationship = inverseRelationship
        self.ownerColumn = ownerColumn
        self.destinationColumn = destinationColumn
        self.ownerOrderColumn = ownerOrderColumn
        self.inverseOrderColumn = inverseOrderColumn
        self.indexName = indexName
        self.destinationEntity = destinationEntity
    }
}
