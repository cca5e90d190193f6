/// The user info of a model element: ordered key-value pairs of text, as Xcode writes them in
/// `<userInfo><entry key="…" value="…"/></userInfo>`.
///
/// ```swift
/// let info: UserInfo = ["JSONKeyPath": "first_name"]
/// info["JSONKeyPath"]  // "first_name"
/// ```
public struct UserInfo: Sendable, Hashable, ExpressibleByDictionaryLiteral {
    /// One key-value pair.
    public struct Entry: Sendable, Hashable {
        /// The key.
        public var key: String
        /// The value.
        public var value: String

        /// Creates an entry.
        public init(key: String, value: String) {
            self.key = key
            self.value = value
        }
    }

    /// The entries in file order.
    public var entries: [Entry]

    /// Creates user info from entries in order.
    public init(_ entries: [Entry] = []) { self.entries = entries }

    /// Creates user info from a literal.
    public init(dictionaryLiteral elements: (String, String)...) {
        entries = elements.map { Entry(key: $0.0, value: $0.1) }
    }

    /// Whether there are no entries.
    public var isEmpty: Bool { entries.isEmpty }

    /// The value of the last entry with `key`; setting replaces it or appends an entry.
    public subscript(key: String) -> String? {
        get { entries.last { $0.key == key }?.value }
        set {
            entries.removeAll { $0.key == key }
            if let newValue { entries.append(Entry(key: key, value: newValue)) }
        }
    }
}
