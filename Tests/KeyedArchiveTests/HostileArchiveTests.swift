import Foundation
import KeyedArchive
import Testing

/// Hostile input: every truncation and thousands of byte flips of a real-shaped archive throw
/// or decode, and never trap, hang or recurse without end.
@Suite struct HostileArchiveTests {
    /// The archive Xcode writes for the value expression `$source.numberOfFlagella`.
    static let archive: Data = {
        var builder = KeyedArchiveBuilder()
        let selector = builder.add(.string("valueForKeyPath:"))
        let variableName = builder.add(.string("source"))
        let variable = builder.addObject(
            className: "NSVariableExpression", superclasses: ["NSExpression", "NSObject"],
            fields: ["NSExpressionType": .integer(2), "NSVariable": variableName])
        let path = builder.add(.string("numberOfFlagella"))
        let specifier = builder.addObject(
            className: "NSKeyPathSpecifierExpression", superclasses: ["NSExpression", "NSObject"],
            fields: ["NSExpressionType": .integer(10), "NSKeyPath": path])
        let arguments = builder.addObject(
            className: "NSMutableArray", superclasses: ["NSArray", "NSObject"],
            fields: ["NS.objects": .array([specifier])])
        let root = builder.addObject(
            className: "NSKeyPathExpression",
            superclasses: ["NSFunctionExpression", "NSExpression", "NSObject"],
            fields: [
                "NSExpressionType": .integer(4), "NSOperand": variable, "NSSelectorName": selector,
                "NSArguments": arguments,
            ])
        return builder.archive(root: root)
    }()

    /// Decodes everything reachable from the root (objects once each); returns how many values.
    static func walk(_ data: Data) throws -> Int {
        let archive = try KeyedArchive(data: data)
        var seen: Set<Int> = []
        var count = 0
        func visit(_ value: ArchivedValue) throws {
            count += 1
            switch value {
            case .array(let values), .set(let values): for value in values { try visit(value) }
            case .dictionary(let entries):
                for (key, value) in entries {
                    try visit(key)
                    try visit(value)
                }
            case .object(let object):
                guard seen.insert(object.index).inserted else { return }
                for key in object.keys {
                    if let field = try object.value(forKey: key) { try visit(field) }
                }
            default: break
            }
        }
        for key in archive.topKeys {
            if let value = try archive.topValue(forKey: key) { try visit(value) }
        }
        return count
    }

    @Test("the intact archive decodes")
    func intact() throws {
        #expect(try Self.walk(Self.archive) > 5)
    }

    @Test("every truncation throws")
    func truncations() {
        for length in 0..<Self.archive.count {
            #expect(throws: KeyedArchiveError.self, "length \(length)") {
                try Self.walk(Self.archive.prefix(length))
            }
        }
    }

    @Test("byte flips throw or decode, never trap")
    func byteFlips() {
        var outcomes = (thrown: 0, decoded: 0)
        for position in 0..<Self.archive.count {
            for mask: UInt8 in [0x01, 0x02, 0x10, 0x80, 0xFF] {
                var bytes = Self.archive
                bytes[position] ^= mask
                do {
                    _ = try Self.walk(bytes)
                    outcomes.decoded += 1
                } catch is KeyedArchiveError {
                    outcomes.thrown += 1
                } catch {
                    Issue.record("position \(position) mask \(mask): untyped error \(error)")
                }
            }
        }
        #expect(outcomes.thrown > 0)
        #expect(outcomes.thrown + outcomes.decoded == Self.archive.count * 5)
    }
}
