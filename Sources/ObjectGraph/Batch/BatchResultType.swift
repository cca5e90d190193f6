/// What a batch request returns (Core Data's `NSBatchDeleteRequestResultType`,
/// `NSBatchUpdateRequestResultType` and `NSBatchInsertRequestResultType`, one type for the three).
///
/// ```swift
/// var request = BatchDeleteRequest(entityName: "Person", predicate: old)
/// request.resultType = .objectIDs
/// let ids = try context.execute(request).objectIDs ?? []
/// ```
public enum BatchResultType: Sendable, Hashable {
    /// Whether the request succeeded (`resultTypeStatusOnly`, `statusOnlyResultType`).
    case statusOnly
    /// How many objects the request deleted, updated or inserted (`resultTypeCount`,
    /// `updatedObjectsCountResultType`).
    case count
    /// The IDs of the objects deleted, updated or inserted (`resultTypeObjectIDs`,
    /// `updatedObjectIDsResultType`).
    case objectIDs
}
