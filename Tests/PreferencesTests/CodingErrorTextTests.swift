import Archive
import Foundation
import Preferences
import Testing

/// Archive and Preferences word a decoding failure the same way (both use Archive's
/// `CodingErrorText`; Preferences hides the array it wraps values in).
@Suite struct SharedCodingErrorTextTests {
    struct Friend: Codable {
        var name: String
    }

    struct Profile: Codable {
        var name: String
        var age: Int
        var friends: [Friend]
    }

    /// Stored values that are not a `Profile`.
    enum BadProfile: String, CaseIterable, Sendable {
        case wrongType, missingKey, nestedWrongType

        struct WrongAge: Encodable {
            var name = "Ada"
            var age = "old"
            var friends: [Friend] = []
        }

        struct NoAge: Encodable {
            var name = "Ada"
            var friends: [Friend] = []
        }

        struct NumberedFriend: Encodable {
            var name = "Ada"
            var age = 36
            var friends = [["name": 7]]
        }

        var value: any Encodable {
            switch self {
            case .wrongType: WrongAge()
            case .missingKey: NoAge()
            case .nestedWrongType: NumberedFriend()
            }
        }

        /// The start of the text both give.
        var expectedPrefix: String {
            switch self {
            case .wrongType: "expected Int at age: "
            case .missingKey: "missing key 'age' at the top level"
            case .nestedWrongType: "expected String at friends.[0].name: "
            }
        }
    }

    @Test(arguments: BadProfile.allCases)
    func sameTextInBothModules(bad: BadProfile) throws {
        let archiveReason: String
        do {
            _ = try Archive.decode(Profile.self, from: Archive.encode(bad.value))
            Issue.record("Archive decoded a bad profile")
            return
        } catch {
            guard case .wrongType(_, _, let reason) = error else {
                Issue.record("unexpected \(error)")
                return
            }
            archiveReason = reason
        }

        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let preferences = try folder.preferences()
        try preferences.encode(bad.value, forKey: "profile")
        let error = #expect(throws: PreferencesError.self) {
            try preferences.decode(Profile.self, forKey: "profile")
        }
        guard case .decodingFailed(_, let preferencesReason) = error else {
            Issue.record("unexpected \(String(describing: error))")
            return
        }

        #expect(preferencesReason == archiveReason)
        #expect(archiveReason.hasPrefix(bad.expectedPrefix), "\(archiveReason)")
    }
}
