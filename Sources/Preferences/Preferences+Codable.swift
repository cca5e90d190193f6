import Archive
import Foundation

extension Preferences {
    /// Stores any `Encodable` value for `key`, encoded as property-list values (so the file
    /// stays readable: a struct becomes a `<dict>`).
    ///
    /// ```swift
    /// struct Window: Codable { var width: Int; var height: Int }
    /// try preferences.encode(Window(width: 800, height: 600), forKey: "window")
    /// let window = try preferences.decode(Window.self, forKey: "window")
    /// ```
    ///
    /// - Throws: ``PreferencesError/encodingFailed(key:reason:)``, or
    ///   ``PreferencesError/dateOutOfRange(key:value:)`` for a date a property list cannot keep.
    public func encode<T: Encodable>(_ value: T, forKey key: String) throws {
        let stored: PreferenceValue
        do {
            // Wrapped in an array: property lists cannot have a bare number or string on top.
            let data = try PropertyListEncoder().encode([value])
            let object = try PropertyListSerialization.propertyList(from: data, format: nil)
            guard let array = object as? [Any], let first = array.first,
                let converted = PreferenceValue(propertyListObject: first)
            else {
                throw PreferencesError.encodingFailed(
                    key: key, reason: "the encoder produced no property-list value")
            }
            stored = converted
        } catch let error as PreferencesError {
            throw error
        } catch {
            throw PreferencesError.encodingFailed(key: key, reason: Self.describe(error))
        }
        try store.change(key, to: stored)
    }

    /// Decodes the value stored (or registered) for `key` as `type`, or returns `nil` when
    /// there is none.
    ///
    /// - Throws: ``PreferencesError/decodingFailed(key:reason:)`` when the value is not a `T`.
    public func decode<T: Decodable>(_ type: T.Type, forKey key: String) throws -> T? {
        guard let value = object(forKey: key) else { return nil }
        do {
            let data = try PropertyListSerialization.data(
                fromPropertyList: [value.propertyListObject], format: .binary, options: 0)
            return try PropertyListDecoder().decode([T].self, from: data).first
        } catch {
            throw PreferencesError.decodingFailed(key: key, reason: Self.describe(error))
        }
    }

    /// The text of a coding error: Archive's wording (``CodingErrorText``), with the coding
    /// path counted from the value (the first component is the index in the array it is
    /// wrapped in for the property-list coders).
    static func describe(_ error: any Error) -> String {
        CodingErrorText.describe(error, ignoringFirst: 1)
    }
}
