import AppContainer
import Foundation

extension Preferences {
    /// The preferences of the running app, in its XDG container. The identifier is the main
    /// bundle's identifier or else the process name (made folder-safe).
    ///
    /// If no container can be resolved (no home folder), they live in a private folder under
    /// the temporary folder instead, so this never fails.
    public static let standard: Preferences = makeStandard()

    private static func makeStandard() -> Preferences {
        let identifier = safeIdentifier(
            Bundle.main.bundleIdentifier ?? ProcessInfo.processInfo.processName)
        if let container = try? AppContainer(identifier: identifier) {
            return Preferences(container: container)
        }
        let folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("\(identifier)-\(getuid())-preferences", isDirectory: true)
        return Preferences(identifier: identifier, folder: folder, container: nil)
    }

    /// `name` with unsafe characters replaced so it passes `AppContainer.validate(identifier:)`.
    static func safeIdentifier(_ name: String) -> String {
        var scalars = String.UnicodeScalarView()
        for scalar in name.unicodeScalars {
            let unsafe =
                scalar == "/" || scalar == "\\" || scalar.value < 0x20
                || (0x7F...0x9F).contains(scalar.value)
            scalars.append(unsafe ? "_" : scalar)
        }
        var safe = String(scalars).trimmingCharacters(in: .whitespaces)
        while safe.utf8.count > AppContainer.maximumIdentifierLength { safe.removeLast() }
        if safe.isEmpty || safe == "." || safe == ".." { safe = "app" }
        return safe
    }
}
