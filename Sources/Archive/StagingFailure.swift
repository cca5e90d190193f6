/// Why a ``StagedFile`` could not be written or moved into place.
package struct StagingFailure: Error, Sendable, Hashable {
    /// The destination (or the file) concerned.
    package let path: String
    /// What failed and the system's reason.
    package let reason: String
    /// Whether the failure is only that the destination exists (with `replacing` false).
    package let destinationExists: Bool

    /// A failure of a step, with the system's reason.
    package init(path: String, reason: String) {
        self.path = path
        self.reason = reason
        destinationExists = false
    }

    /// The destination exists and was not to be replaced.
    package init(path: String, destinationExists: Bool) {
        self.path = path
        reason = "the file exists"
        self.destinationExists = destinationExists
    }
}
