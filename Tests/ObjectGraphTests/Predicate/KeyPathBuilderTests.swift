import Foundation
import Testing

@testable import ObjectGraph

private typealias Student = KeyPathSchool.Student

/// Key paths of classes that name their properties, wherever a key is taken: the predicate
/// builder, sort descriptors, prefetching, fetched properties and grouping.
@Suite struct KeyPathBuilderTests {
    @Test("each key-path operator builds the parsed predicate and fetches the same students")
    func operators() throws {
        try KeyPathSchool.withSchool { context in
            try KeyPathSchool.check(
                \Student.gpa >= 3.0, "gpa >= 3.0", context,
                expected: ["Ada", "Cid", "Dee"])
            try KeyPathSchool.check(\Student.gpa > 3.1, "gpa > 3.1", context)
            try KeyPathSchool.check(\Student.age < 21, "age < 21", context, expected: ["Bob"])
            try KeyPathSchool.check(\Student.age <= 21, "age <= 21", context)
            try KeyPathSchool.check(\Student.name == "Ada", "name == 'Ada'", context)
            try KeyPathSchool.check(\Student.name != "Ada", "name != 'Ada'", context)
            try KeyPathSchool.check(\Student.active == true, "active == YES", context)
            try KeyPathSchool.check(
                \Student.nickname == nil, "nickname == nil", context,
                expected: ["Bob", "Dee"])
            try KeyPathSchool.check(\Student.nickname != nil, "nickname != nil", context)
            try KeyPathSchool.check(\Student.nickname >= "C", "nickname >= 'C'", context)
            try KeyPathSchool.check(
                \Student.advisor?.name == "Turing", "advisor.name == 'Turing'", context,
                expected: ["Ada", "Dee"])
        }
    }

    @Test("&&, || and ! combine key-path predicates as AND, OR and NOT")
    func logic() throws {
        try KeyPathSchool.withSchool { context in
            try KeyPathSchool.check(
                \Student.age > 20 && \Student.gpa < 3.6 || !(\Student.active == true),
                "age > 20 AND gpa < 3.6 OR NOT active == YES", context,
                expected: ["Bob", "Cid", "Dee", "Émile"])
        }
    }

    @Test("the README's key-path predicate builds the parsed predicate")
    func readmeExample() throws {
        var request = FetchRequest<Student>()
        request.predicate =
            \Student.gpa >= 3.0 && !(\Student.nickname == nil)
            || (\Student.name).beginsWith("a", options: [.caseInsensitive, .diacriticInsensitive])
        #expect(
            request.predicate
                == (try ObjectGraph.Predicate(
                    format: "gpa >= 3.0 AND NOT nickname == nil OR name BEGINSWITH[cd] 'a'")))
    }

    @Test("string operations with options, IN and BETWEEN on key paths")
    func strings() throws {
        try KeyPathSchool.withSchool { context in
            try KeyPathSchool.check(
                (\Student.name).beginsWith("a", options: .caseInsensitive),
                "name BEGINSWITH[c] 'a'", context, expected: ["Ada"])
            try KeyPathSchool.check(
                (\Student.name).contains("E", options: [.caseInsensitive, .diacriticInsensitive]),
                "name CONTAINS[cd] 'E'", context, expected: ["Dee", "Émile"])
            try KeyPathSchool.check((\Student.name).endsWith("e"), "name ENDSWITH 'e'", context)
            try KeyPathSchool.check((\Student.name).like("?d*"), "name LIKE '?d*'", context)
            try KeyPathSchool.check(
                (\Student.name).isIn(["Ada", "Bob"]), "name IN {'Ada', 'Bob'}", context,
                expected: ["Ada", "Bob"])
            try KeyPathSchool.check(
                (\Student.age).between(21, 25), "age BETWEEN {21, 25}", context,
                expected: ["Ada", "Cid", "Émile"])
            try KeyPathSchool.check(
                Expression.key(\Student.gpa).times(2) > 7, "gpa * 2 > 7", context)
        }
    }

    @Test(
        "a key path the class does not name: the predicate carries the error, the fetch throws it")
    func unnamedInPredicate() throws {
        try KeyPathSchool.withSchool { context in
            let predicate = \Student.cache > 0 || \Student.age > 0
            let expected = KeyPathNamingError.unnamedKeyPath(
                "\(\Student.cache as AnyKeyPath)", type: "\(Student.self)")
            #expect(predicate.keyPathError == expected)
            #expect("\(expected)".contains("Student"))
            #expect(throws: expected) { try KeyPathSchool.names(context, predicate) }
            var request = FetchRequest<Student>()
            request.havingPredicate = \Student.cache == 1
            #expect(throws: expected) { try context.fetchDictionaries(request) }
            #expect(throws: expected) {
                try context.count(for: FetchRequest<Student>(predicate: predicate))
            }
        }
    }

    @Test("the fetch refuses the carried error before running: also when no row is evaluated")
    func unnamedInPredicateOnEmptyStore() throws {
        let classes = ManagedObjectClasses()
        classes.register(Student.self, forEntity: "Student")
        let coordinator = StoreCoordinator(model: KeyPathSchool.model())
        try coordinator.addStore(type: .inMemory)
        let context = ManagedContext(coordinator: coordinator, classes: classes)
        let predicate = \Student.cache > 0
        #expect(throws: KeyPathNamingError.self) {
            try context.fetch(FetchRequest<Student>(predicate: predicate))
        }
        #expect(throws: KeyPathNamingError.self) {
            try context.count(for: FetchRequest<Student>(predicate: predicate))
        }
        #expect(throws: KeyPathNamingError.self) {
            try context.fetchObjectIDs(FetchRequest<Student>(predicate: predicate))
        }
    }

    @Test("a compared value with no predicate form is carried as an error naming its type")
    func unsupportedValue() {
        struct Opaque: Equatable {}
        final class Holder: KeyPathNaming {
            var opaque = Opaque()
            static func propertyName(for keyPath: AnyKeyPath) -> String? { "opaque" }
        }
        let predicate = \Holder.opaque == Opaque()
        guard case .unsupportedValue(_, let type) = predicate.keyPathError else {
            Issue.record("no error in \(predicate)")
            return
        }
        #expect(type.contains("Opaque"))
    }

    @Test("sort descriptors take key paths; one the class does not name throws")
    func sortDescriptors() throws {
        #expect(
            try ObjectGraph.SortDescriptor(
                \Student.name, ascending: false, comparison: .caseInsensitive)
                == ObjectGraph.SortDescriptor(
                    "name", ascending: false, comparison: .caseInsensitive))
        #expect(throws: KeyPathNamingError.self) { try ObjectGraph.SortDescriptor(\Student.cache) }
        try KeyPathSchool.withSchool { context in
            var request = FetchRequest<Student>()
            request.sortDescriptors = [try SortDescriptor(\Student.gpa, ascending: false)]
            #expect(
                try context.fetch(request).map(\.name) == ["Ada", "Dee", "Cid", "Émile", "Bob"])
        }
    }

    @Test("prefetching, fetched properties and grouping take key paths")
    func fetchRequestKeys() throws {
        var request = FetchRequest<Student>()
        try request.prefetchRelationships(\.courses, \.advisor)
        #expect(request.relationshipKeyPathsForPrefetching == ["courses", "advisor"])
        try request.fetchProperties(\.active)
        #expect(request.propertiesToFetch == [.key("active")])
        #expect(try FetchProperty.key(\Student.name) == .key("name"))
        try request.groupBy(\.active)
        #expect(request.propertiesToGroupBy == ["active"])
        #expect(throws: KeyPathNamingError.self) { try request.prefetchRelationships(\.cache) }
        #expect(request.relationshipKeyPathsForPrefetching == ["courses", "advisor"])
        #expect(throws: KeyPathNamingError.self) { try request.groupBy(\.cache) }
        #expect(throws: KeyPathNamingError.self) { try request.fetchProperties(\.cache) }
        try KeyPathSchool.withSchool { context in
            var prefetching = FetchRequest<Student>(predicate: \Student.name == "Dee")
            try prefetching.prefetchRelationships(\.courses)
            #expect(try context.fetch(prefetching).first?.courses.count == 3)
            var grouped = FetchRequest<Student>()
            try grouped.groupBy(\.active)
            try grouped.fetchProperties(\.active)
            #expect(try context.fetchDictionaries(grouped).count == 2)
        }
    }

    @Test("names come from the class's table; the root type is named in the error")
    func naming() throws {
        #expect(try Student.name(of: \.advisor?.name) == "advisor.name")
        #expect(
            throws: KeyPathNamingError.unnamedKeyPath(
                "\(\Student.cache as AnyKeyPath)", type: "\(Student.self)")
        ) {
            try Student.name(of: \.cache)
        }
    }
}
