/// Why a save failed. Nothing was written, except where ``partial(saved:failed:error:)`` says
/// which stores did save. A store that cannot write at all throws a ``StoreError`` naming its
/// file instead.
public enum SaveError: Error, Sendable, CustomStringConvertible {
    /// Objects failed validation; every problem is listed.
    case validation(ValidationError)
    /// Rows were changed by someone else since they were read (optimistic locking): every
    /// conflict, each with its changed properties' values (read, wanted, now stored).
    case conflicts([SaveConflict])
    /// Inserted or updated objects take uniquely constrained values that other objects hold
    /// (under ``MergePolicy/error``; the other policies resolve them), found before the save
    /// or by the store's unique index when another writer saved the values first: nothing of
    /// the save is written.
    case constraintConflicts([ConstraintConflict])
    /// Some stores saved and one failed: `saved` lists the stores whose changes are written.
    case partial(saved: [StoreDescription], failed: StoreDescription, error: String)
    /// A store refused the save before anything was written (it is read-only); the error names
    /// its file.
    case store(StoreError)

    /// A one-paragraph explanation.
    public var description: String {
        switch self {
        case .validation(let error): return error.description
        case .conflicts(let conflicts):
            return "the save conflicts with changes made elsewhere:\n"
                + conflicts.map { "  \($0)" }.joined(separator: "\n")
        case .constraintConflicts(let conflicts):
            return "the save breaks uniqueness constraints:\n"
                + conflicts.map { "  \($0)" }.joined(separator: "\n")
        case .partial(let saved, let failed, let error):
            let names = saved.map(\.identifier).joined(separator: ", ")
            return "stores \(names) saved, but store \(failed.identifier) failed: \(error)"
        case .store(let error): return error.description
        }
    }
}
