import Foundation
import ObjectGraph

/// `typed_access`: reading and writing one attribute (`age`) of n loaded people through a
/// generated class's typed property, next to the same through the string-keyed API
/// (`person["age"]`, `set(_:for:)`). In process, on an in-memory store; each way runs
/// `repetitions` times, alternating (which goes first swaps each time), each time a number of
/// passes over the objects, and the fastest time per pass of each is reported (reads and
/// writes separately, then one read and one write per object together).
struct TypedAccessBenchmark {
    let n: Int
    let repetitions: Int

    /// The result: seconds per pass of each way, and typed / string ratios.
    struct Result {
        var typedRead = Double.infinity, stringRead = Double.infinity
        var typedWrite = Double.infinity, stringWrite = Double.infinity
        var typedBoth = Double.infinity, stringBoth = Double.infinity
        /// The typed read on a context that does not track Observation
        /// (`tracksObservation = false`), next to the same string read.
        var untrackedRead = Double.infinity, untrackedStringRead = Double.infinity
    }

    func run() throws -> Result {
        let coordinator = StoreCoordinator(model: Workload.model())
        try coordinator.addStore()
        let context = ManagedContext(coordinator: coordinator, classes: ManagedObjectClasses())
        for index in 0..<n {
            let person = try context.insert(BenchPerson.self)
            person.age = Int32(Workload.person(index).age)
        }
        try context.save()
        let people = try context.fetch(BenchPerson.fetchRequest())
        guard people.count == n else {
            throw BenchError.mismatch("typed_access fetched \(people.count)")
        }
        for person in people { _ = person.age }  // fire the faults before timing
        var result = Result()
        var checksum: (typed: Int, string: Int) = (0, 0)
        // Each sample times `passes` passes over the n objects (a pass of 100,000 takes a few
        // milliseconds), and the two ways swap places every repetition, so that neither always
        // runs on the caches the other (or the writes before it) left.
        let passes = min(20, max(1, 1_000_000 / max(n, 1)))
        for repetition in 0..<repetitions {
            let typedFirst = repetition.isMultiple(of: 2)
            for way in typedFirst ? [true, false] : [false, true] {
                if way {
                    result.typedRead = min(
                        result.typedRead, time(passes) { checksum.typed = typedRead(people) })
                } else {
                    result.stringRead = min(
                        result.stringRead, time(passes) { checksum.string = stringRead(people) })
                }
            }
            guard checksum.typed == checksum.string else {
                throw BenchError.mismatch(
                    "typed_access reads \(checksum.typed) and \(checksum.string)")
            }
            for way in typedFirst ? [true, false] : [false, true] {
                if way {
                    result.typedWrite = min(
                        result.typedWrite, time(passes) { typedWrite(people, 1) })
                } else {
                    result.stringWrite = min(
                        result.stringWrite, try time(passes) { try stringWrite(people, -1) })
                }
            }
            for way in typedFirst ? [true, false] : [false, true] {
                if way {
                    result.typedBoth = min(result.typedBoth, time(passes) { typedBoth(people) })
                } else {
                    result.stringBoth = min(
                        result.stringBoth, try time(passes) { try stringBoth(people) })
                }
            }
        }
        context.tracksObservation = false
        for repetition in 0..<repetitions {
            for way in repetition.isMultiple(of: 2) ? [true, false] : [false, true] {
                if way {
                    result.untrackedRead = min(
                        result.untrackedRead, time(passes) { checksum.typed = typedRead(people) })
                } else {
                    result.untrackedStringRead = min(
                        result.untrackedStringRead,
                        time(passes) { checksum.string = stringRead(people) })
                }
            }
        }
        return result
    }

    // The loops are kept out of line (`@inline(never)`) so that a profile (callgrind) shows
    // each one's instructions on its own.

    /// Seconds per pass of `passes` runs of `body`.
    private func time(_ passes: Int, _ body: () throws -> Void) rethrows -> Double {
        let start = DispatchTime.now().uptimeNanoseconds
        for _ in 0..<passes { try body() }
        return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9 / Double(passes)
    }

    @inline(never)
    private func typedRead(_ people: [BenchPerson]) -> Int {
        var sum = 0
        for person in people { sum &+= Int(person.age) }
        return sum
    }

    @inline(never)
    private func stringRead(_ people: [BenchPerson]) -> Int {
        var sum = 0
        for person in people { sum &+= Int(person["age"] as Int32? ?? 0) }
        return sum
    }

    @inline(never)
    private func typedWrite(_ people: [BenchPerson], _ offset: Int32) {
        for (index, person) in people.enumerated() { person.age = Int32(index % 90) + offset }
    }

    @inline(never)
    private func stringWrite(_ people: [BenchPerson], _ offset: Int32) throws {
        for (index, person) in people.enumerated() {
            try person.set(Int32(index % 90) + offset, for: "age")
        }
    }

    @inline(never)
    private func typedBoth(_ people: [BenchPerson]) {
        for person in people { person.age = person.age &+ 1 }
    }

    @inline(never)
    private func stringBoth(_ people: [BenchPerson]) throws {
        for person in people {
            let age: Int32 = person["age"] ?? 0
            try person.set(age &+ 1, for: "age")
        }
    }
}

/// The class `objectgraph codegen` writes for the workload's `Person`, cut to the one attribute
/// the benchmark uses (the workload's model is built in code, so it is written here, as
/// generated: same declarations, same calls).
class BenchPerson: ManagedObject, GeneratedManagedObject, KeyPathNaming {
    /// The entity's name in the model.
    class var entityName: String { "Person" }

    /// Registers the class (ObjectGraph calls it the first time it meets it).
    static func registerModelClasses(in classes: ManagedObjectClasses) {
        classes.register(BenchPerson.self, forEntity: "Person")
    }

    /// The model property `keyPath` (rooted at this class or a generated subclass) names.
    static func propertyName(for keyPath: AnyKeyPath) -> String? {
        BenchPersonProperties.keyPaths.name(for: keyPath)
    }
}

extension BenchPerson {
    /// The attribute "age" (Integer 32, required).
    var age: Int32 {
        get { attributeValue(BenchPersonProperties.age, default: 0) }
        set { setAttributeValue(newValue, BenchPersonProperties.age) }
    }
}

/// The properties of BenchPerson, and the key paths of it and its generated subclasses.
private enum BenchPersonProperties {
    static let age = TypedAttribute("age")

    static let keyPaths = KeyPathNameTable([
        \BenchPerson.age: "age"
    ])
}
