/// Number text for model files.
enum XMLNumberText {
    /// `value` as text that reads back as the identical `Double`.
    ///
    /// Integral values are written without a fraction, as Xcode does (`-978285600`, not
    /// `-978285600.0`); other values use Swift's shortest round-trip form (`366809773.747109`).
    static func string(_ value: Double) -> String {
        if let integer = Int64(exactly: value) { return String(integer) }
        return value.description
    }
}
