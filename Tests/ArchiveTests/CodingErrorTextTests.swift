import Archive
import Foundation
import Testing

/// The wording of ``CodingErrorText``, which Archive and Preferences share.
@Suite struct CodingErrorTextTests {
    /// A coding key with a name or an index.
    struct Key: CodingKey {
        var stringValue: String
        var intValue: Int?

        init(stringValue: String) {
            self.stringValue = stringValue
        }

        init(intValue: Int) {
            stringValue = String(intValue)
            self.intValue = intValue
        }
    }

    static let path: [any CodingKey] = [
        Key(stringValue: "people"), Key(intValue: 2), Key(stringValue: "name"),
    ]

    static func decoding(_ debug: String = "", path: [any CodingKey] = path)
        -> DecodingError.Context
    {
        DecodingError.Context(codingPath: path, debugDescription: debug)
    }

    @Test("each coding error has its sentence, with the path keys by name and indexes as [n]")
    func wording() {
        let cases: [(any Error, String)] = [
            (
                EncodingError.invalidValue(
                    1, .init(codingPath: Self.path, debugDescription: "cannot encode 1")),
                "cannot encode 1 at people.[2].name"
            ),
            (
                DecodingError.typeMismatch(Int.self, Self.decoding("found a string")),
                "expected Int at people.[2].name: found a string"
            ),
            (
                DecodingError.valueNotFound(String.self, Self.decoding("boilerplate")),
                "no String at people.[2].name"
            ),
            (
                DecodingError.keyNotFound(Key(stringValue: "age"), Self.decoding("boilerplate")),
                "missing key 'age' at people.[2].name"
            ),
            (
                DecodingError.dataCorrupted(Self.decoding("300 does not fit in Int8")),
                "300 does not fit in Int8 at people.[2].name"
            ),
        ]
        for (error, text) in cases {
            #expect(CodingErrorText.describe(error) == text)
        }
    }

    @Test("an empty path is the top level; an empty debug description is left out")
    func emptyParts() {
        #expect(
            CodingErrorText.describe(DecodingError.typeMismatch(Int.self, Self.decoding(path: [])))
                == "expected Int at the top level")
        #expect(
            CodingErrorText.describe(DecodingError.dataCorrupted(Self.decoding()))
                == "corrupt data at people.[2].name")
        #expect(
            CodingErrorText.describe(
                EncodingError.invalidValue(1, .init(codingPath: [], debugDescription: "")))
                == "invalid value at the top level")
    }

    @Test("leading path components a caller added can be ignored")
    func ignoringWrapper() {
        let error = DecodingError.valueNotFound(Int.self, Self.decoding())
        #expect(CodingErrorText.describe(error, ignoringFirst: 1) == "no Int at [2].name")
        #expect(CodingErrorText.describe(error, ignoringFirst: 3) == "no Int at the top level")
        #expect(CodingErrorText.describe(error, ignoringFirst: 9) == "no Int at the top level")
    }

    @Test("other errors are described as they describe themselves")
    func otherErrors() {
        struct Custom: Error, CustomStringConvertible {
            var description: String { "custom failure" }
        }
        #expect(CodingErrorText.describe(Custom()) == "custom failure")
    }
}
