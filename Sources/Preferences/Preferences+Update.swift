import Foundation

extension Preferences {
    /// Replaces the value for `key` by what `transform` returns for the current one, atomically
    /// across threads and processes, and writes the file before returning.
    ///
    /// `transform` gets the value on disk now (with this process's unwritten changes on top),
    /// or the registered default, or `nil`; it returns the new value, or `nil` to remove the
    /// key. It runs while holding the writers' lock (`flock` on `<id>.plist.lock`), so no other
    /// process or thread can write the file between the read and the write: concurrent updates
    /// are never lost, as they can be with a read followed by ``set(_:forKey:)``. Keep it short,
    /// and do not call ``synchronize()`` or `update` from it (that would wait for itself).
    ///
    /// ```swift
    /// // Append to a list, even while other processes append to it too.
    /// try preferences.update(forKey: "recentFiles") { current in
    ///     guard case .array(let files)? = current else { return ["notes.txt"] }
    ///     return .array(files + ["notes.txt"])
    /// }
    /// ```
    ///
    /// Pending changes to other keys are written with it.
    ///
    /// - Returns: The new value (`nil`: the key was removed).
    /// - Throws: What `transform` throws (nothing is written then);
    ///   ``PreferencesError/dateOutOfRange(key:value:)`` for a date a property list cannot
    ///   keep; ``PreferencesError`` when the folder or file cannot be written.
    @discardableResult
    public func update(
        forKey key: String, _ transform: (PreferenceValue?) throws -> PreferenceValue?
    ) throws -> PreferenceValue? {
        try store.update(key, transform)
    }

    /// ``update(forKey:_:)`` with the value converted to `type` (leniently, like
    /// ``value(_:forKey:)``).
    ///
    /// ```swift
    /// let launches = try preferences.update(Int.self, forKey: "launchCount") { ($0 ?? 0) + 1 }
    /// ```
    ///
    /// - Throws: ``PreferencesError/decodingFailed(key:reason:)`` when a value is stored that
    ///   does not convert to `type` (nothing is written), and whatever
    ///   ``update(forKey:_:)`` throws.
    @discardableResult
    public func update<T: PreferenceConvertible>(
        _ type: T.Type, forKey key: String, _ transform: (T?) throws -> T?
    ) throws -> T? {
        var result: T?
        _ = try store.update(key) { current in
            var typed: T?
            if let current {
                guard let converted = T(preferenceValue: current) else {
                    throw PreferencesError.decodingFailed(
                        key: key, reason: "the stored value \(current) is not a \(T.self)")
                }
                typed = converted
            }
            result = try transform(typed)
            return result?.preferenceValue
        }
        return result
    }
}
