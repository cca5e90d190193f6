import Foundation

/// Who is asking: an app's identifier and the access groups it is entitled to.
///
/// An app sees the items of its own group (its identifier) and of the groups it lists, and no
/// others. Items it adds without naming a group go to ``defaultAccessGroup``: the first listed
/// group, else the identifier (as on Apple platforms).
///
/// ```swift
/// let mail = KeychainApplication(identifier: "com.example.mail",
///                                accessGroups: ["com.example.shared"])
/// let store = try KeychainStore(application: mail)
/// ```
///
/// On Linux nothing vouches for the identity a process claims: see "What this protects" in
/// ``KeychainStore``. Groups keep cooperating apps from mixing up their items; they are not a
/// barrier against a hostile program of the same user.
public struct KeychainApplication: Sendable, Hashable, CustomStringConvertible {
    /// The app's identifier, such as `com.example.mail`; also an access group of its own.
    public let identifier: String
    /// The groups the app is entitled to besides its identifier, in order.
    public let accessGroups: [String]
    /// Whether the app sees every group (tools acting for the user, such as the CLI).
    public let seesAllGroups: Bool

    /// Creates an identity.
    public init(identifier: String, accessGroups: [String] = []) {
        self.identifier = identifier
        self.accessGroups = accessGroups
        self.seesAllGroups = false
    }

    private init(ownerIdentifier: String) {
        self.identifier = ownerIdentifier
        self.accessGroups = []
        self.seesAllGroups = true
    }

    /// A tool acting for the user who owns the keychain (like macOS `security`): it sees and
    /// may write every access group. Its default group is `identifier`.
    public static func owner(identifier: String = "objectgraph") -> KeychainApplication {
        KeychainApplication(ownerIdentifier: identifier)
    }

    /// The group new items go to when none is named.
    public var defaultAccessGroup: String { accessGroups.first ?? identifier }

    /// The groups visible to the app: its identifier and its entitled groups.
    public var visibleAccessGroups: [String] {
        accessGroups.contains(identifier) ? accessGroups : [identifier] + accessGroups
    }

    /// Whether the app may see and write items of `group`.
    public func isEntitled(to group: String) -> Bool {
        seesAllGroups || group == identifier || accessGroups.contains(group)
    }

    /// `com.example.mail [com.example.shared]`.
    public var description: String {
        seesAllGroups
            ? "\(identifier) (owner: all groups)"
            : "\(identifier) [\(accessGroups.joined(separator: ", "))]"
    }
}

extension KeychainApplication {
    /// This process, identified by its name and entitled to no other group.
    public static var current: KeychainApplication {
        KeychainApplication(identifier: ProcessInfo.processInfo.processName)
    }
}
