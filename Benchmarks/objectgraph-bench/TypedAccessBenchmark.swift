import Foundation
import ObjectGraph

/// `typed_access`: reading and writing one attribute (`age`) of n loaded people through a
/// generated class's typed property, next to the same through the string-keyed API
/// (`person["age"]`, `set(_:for:)`). In process, on an in-memory store; each way runs
/// `repetitions` times, alternating, and the fastest run of each is reported (reads and
/// writes separately, then one read and one write per object together).
struct TypedAccessBenchmark {
    let n: Int
    let repetitions: Int

    /// The result: seconds per pass of each way, and typed / string ratios.
    struct Result {
        var typedRead = Double.infinity, stringRead = Double.infinity
        var typedWrite = Double.infinity, stringWrite = Double.infinity
        var typedBoth = Double.infinity, stringBoth = Double.infinity
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
        for _ in 0..<repetitions {
            result.typedRead = min(result.typedRead, time { checksum.typed = typedRead(people) })
            result.stringRead = min(
                result.stringRead, time { checksum.string = stringRead(people) })
            guard checksum.typed == checksum.string else {
                throw BenchError.mismatch(
                    "typed_access reads \(checksum.typed) and \(checksum.string)")
            }
            result.typedWrite = min(result.typedWrite, time { typedWrite(people, 1) })
            result.stringWrite = min(result.stringWrite, try time { try stringWrite(people, -1) })
            result.typedBoth = min(result.typedBoth, time { typedBoth(people) })
            result.stringBoth = min(result.stringBoth, try time { try stringBoth(people) })
        }
        return result
    }

    // The loops are kept out of line (`@inline(never)`) so that a profile (callgrind) shows
    // each one's instructions on its own.

    private func time(_ body: () throws -> Void) rethrows -> Double {
        let start = DispatchTime.now().uptimeNanoseconds
        try body()
        return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
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
