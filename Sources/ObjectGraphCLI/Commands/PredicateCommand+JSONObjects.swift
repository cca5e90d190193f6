import Foundation
import ObjectGraph

extension PredicateCommand.JSONLines {
    /// The `"objects"` array of a request line, converted one element at a time, so only the
    /// object being evaluated is in memory. The line must already have been checked.
    struct Objects {
        /// Whether the member is an array (or absent: then there are no objects).
        let isArray: Bool
        private var scanner: JSONScanner?
        private var isFirst = true

        /// The array starting at `offset` in `bytes`, or no objects when `offset` is nil.
        init(bytes: UnsafeBufferPointer<UInt8>, offset: Int?) {
            guard let offset else {
                isArray = true
                return
            }
            var scanner = JSONScanner(bytes, at: offset)
            isArray = scanner.consume(UInt8(ascii: "["))
            if isArray { self.scanner = scanner }
        }

        /// The next object, or nil after the last.
        /// - Throws: ``PredicateCommand/JSON/Problem`` when it breaks the conventions.
        mutating func next() throws -> EvaluationValue? {
            guard var scanner else { return nil }
            let hasNext =
                isFirst
                ? !scanner.consume(UInt8(ascii: "]")) : scanner.consume(UInt8(ascii: ","))
            isFirst = false
            guard hasNext else {
                self.scanner = nil
                return nil
            }
            let json: JSONValue
            do {
                json = try scanner.readValue(depth: 2)
            } catch {
                self.scanner = nil
                throw PredicateCommand.JSON.Problem(description: "invalid JSON")
            }
            self.scanner = scanner
            return try PredicateCommand.JSON.evaluationValue(json)
        }

        /// The first object that breaks the conventions, reading from here on a copy.
        func firstProblem() -> Error? {
            var copy = self
            do {
                while try copy.next() != nil {}
                return nil
            } catch {
                return error
            }
        }
    }

    /// The outcome of each object, kept in a byte each (and the messages of the failed ones)
    /// until the response is written.
    struct Results {
        private var outcomes: [UInt8] = []
        private var errors: [String] = []

        private static let falseOutcome: UInt8 = 0
        private static let trueOutcome: UInt8 = 1
        private static let failedOutcome: UInt8 = 2

        /// Records a result.
        mutating func add(_ result: Bool) {
            outcomes.append(result ? Self.trueOutcome : Self.falseOutcome)
        }

        /// Records a failed evaluation.
        mutating func add(error message: String) {
            outcomes.append(Self.failedOutcome)
            errors.append(message)
        }

        /// `,"results":[…]`, then `,"errors":[…]` when an evaluation failed.
        var json: String {
            var out = ",\"results\":["
            out.reserveCapacity(outcomes.count * 6 + 16)
            for (index, outcome) in outcomes.enumerated() {
                if index > 0 { out += "," }
                switch outcome {
                case Self.trueOutcome: out += "true"
                case Self.falseOutcome: out += "false"
                default: out += "null"
                }
            }
            out += "]"
            guard !errors.isEmpty else { return out }
            out += ",\"errors\":["
            var failed = errors.makeIterator()
            for (index, outcome) in outcomes.enumerated() {
                if index > 0 { out += "," }
                if outcome == Self.failedOutcome, let message = failed.next() {
                    out += StringLiteral.quoted(message)
                } else {
                    out += "null"
                }
            }
            return out + "]"
        }
    }
}
