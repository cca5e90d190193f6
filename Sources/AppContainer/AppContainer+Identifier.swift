extension AppContainer {
    /// The longest identifier accepted, in UTF-8 bytes (file names allow 255; room is left for
    /// suffixes such as `.plist.corrupt-<timestamp>`).
    public static let maximumIdentifierLength = 200

    /// Checks that `identifier` is a safe folder name, and says why when it is not.
    ///
    /// ```swift
    /// try AppContainer.validate(identifier: "com.example.notes")   // fine
    /// try AppContainer.validate(identifier: "../etc")               // throws
    /// ```
    ///
    /// - Throws: ``AppContainerError/invalidIdentifier(_:reason:)``.
    public static func validate(identifier: String) throws {
        func reject(_ reason: String) -> AppContainerError {
            .invalidIdentifier(identifier, reason: reason)
        }
        if identifier.isEmpty {
            throw reject("it is empty")
        }
        if identifier == "." || identifier == ".." {
            throw reject("'.' and '..' name existing folders")
        }
        if identifier.utf8.count > maximumIdentifierLength {
            throw reject("it is longer than \(maximumIdentifierLength) bytes")
        }
        for scalar in identifier.unicodeScalars {
            if scalar == "/" || scalar == "\\" {
                throw reject("it contains a slash, so it is not a single folder name")
            }
            if scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) {
                throw reject(
                    "it contains the control character U+"
                        + String(scalar.value, radix: 16, uppercase: true))
            }
        }
        if identifier.first?.isWhitespace == true || identifier.last?.isWhitespace == true {
            throw reject("it starts or ends with white space")
        }
    }
}
