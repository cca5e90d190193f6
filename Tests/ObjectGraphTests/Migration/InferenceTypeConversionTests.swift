import Foundation
import ObjectGraph
import Testing

/// The attribute type changes an inferred mapping accepts (the table in
/// `AttributeTypeConversion` and Docs/Migration.md).
@Suite("Inferred mapping: attribute type conversions")
struct InferenceTypeConversionTests {
    static let types: [AttributeType] = [
        .integer16, .integer32, .integer64, .decimal, .double, .float, .string, .boolean, .date,
        .binary, .uuid, .uri, .transformable, .objectID, .composite, .undefined,
    ]

    /// The table written out row by row: `from: [to: conversion]`, identity left out.
    static let expected: [AttributeType: [AttributeType: AttributeTypeConversion]] = [
        .integer16: [
            .integer32: .widening, .integer64: .widening, .decimal: .integerToReal,
            .double: .integerToReal, .float: .integerToReal, .boolean: .numberToBoolean,
            .string: .integerToString,
        ],
        .integer32: [
            .integer16: .narrowingInteger, .integer64: .widening, .decimal: .integerToReal,
            .double: .integerToReal, .float: .integerToReal, .boolean: .numberToBoolean,
            .string: .integerToString,
        ],
        .integer64: [
            .integer16: .narrowingInteger, .integer32: .narrowingInteger, .decimal: .integerToReal,
            .double: .integerToReal, .float: .integerToReal, .boolean: .numberToBoolean,
            .string: .integerToString,
        ],
        .decimal: [
            .integer16: .realToInteger, .integer32: .realToInteger, .integer64: .realToInteger,
            .double: .realToReal, .float: .realToReal, .boolean: .numberToBoolean,
        ],
        .double: [
            .integer16: .realToInteger, .integer32: .realToInteger, .integer64: .realToInteger,
            .decimal: .realToReal, .float: .realToReal, .boolean: .numberToBoolean,
        ],
        .float: [
            .integer16: .realToInteger, .integer32: .realToInteger, .integer64: .realToInteger,
            .decimal: .realToReal, .double: .widening, .boolean: .numberToBoolean,
        ],
        .boolean: [
            .integer16: .booleanToInteger, .integer32: .booleanToInteger,
            .integer64: .booleanToInteger, .decimal: .integerToReal, .double: .integerToReal,
            .float: .integerToReal, .string: .integerToString,
        ],
    ]

    @Test("every pair of types converts exactly as the table says", arguments: types)
    func table(from source: AttributeType) {
        for destination in Self.types {
            let wanted =
                source == destination ? .identity : Self.expected[source]?[destination]
            #expect(
                AttributeTypeConversion(from: source, to: destination) == wanted,
                "\(source) → \(destination)")
        }
    }

    @Test(
        "inference accepts exactly the table's changes and names entity and property otherwise",
        arguments: types)
    func inference(from source: AttributeType) {
        for destination in Self.types {
            let before = InferenceFixtures.entity("Reading", [Attribute("value", type: source)])
            let after = InferenceFixtures.entity("Reading", [Attribute("value", type: destination)])
            let error = InferenceFixtures.inferenceError([before], [after])
            if source != destination && Self.expected[source]?[destination] == nil {
                #expect(InferenceFixtures.place(of: error)?.entity == "Reading")
                #expect(InferenceFixtures.place(of: error)?.property == "value")
            } else {
                #expect(error == nil, "\(source) → \(destination)")
            }
        }
    }
}
