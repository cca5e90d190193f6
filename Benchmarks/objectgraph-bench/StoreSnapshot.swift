import Foundation

/// A copy of the files of a side's store folder, put back before each repeated run of an
/// operation so that every run starts from the same store (an `insert` run on the store it
/// made itself would insert twice as many people).
struct StoreSnapshot {
    let folder: URL
    let copy: URL

    /// Copies every file in `folder` aside.
    init(of folder: URL) throws {
        self.folder = folder
        copy = folder.deletingLastPathComponent().appendingPathComponent(
            folder.lastPathComponent + "-snapshot")
        let files = FileManager.default
        if files.fileExists(atPath: copy.path) { try files.removeItem(at: copy) }
        try files.copyItem(at: folder, to: copy)
    }

    /// Makes the folder hold exactly the copied files again.
    func restore() throws {
        let files = FileManager.default
        try files.removeItem(at: folder)
        try files.copyItem(at: copy, to: folder)
    }

    /// Removes the copy.
    func discard() {
        try? FileManager.default.removeItem(at: copy)
    }
}
