import Foundation
import Testing

@testable import ObjectGraph

private typealias Student = KeyPathSchool.Student

/// Foundation's `#Predicate` converts to the predicate the format string parses to, and
/// fetches the same students from SQLite.
@Suite struct FoundationPredicateConversionTests {
    private func check(
        _ predicate: Foundation.Predicate<Student>, _ format: String, _ context: ManagedContext,
        expected: [String]? = nil, sourceLocation: Testing.SourceLocation = #_sourceLocation
    ) throws {
        try KeyPathSchool.check(
            try ObjectGraph.Predicate(predicate), format, context, expected: expected,
            sourceLocation: sourceLocation)
    }

    @Test("comparisons, equality and captured values")
    func comparisons() throws {
        try KeyPathSchool.withSchool { context in
            let minimum = 21
            try check(
                #Predicate<Student> { $0.age > minimum }, "age > 21", context,
                expected: ["Cid", "Dee", "Émile"])
            try check(#Predicate<Student> { $0.age >= 21 }, "age >= 21", context)
            try check(
                #Predicate<Student> { $0.gpa < 3.0 }, "gpa < 3.0", context,
                expected: ["Bob", "Émile"])
            try check(#Predicate<Student> { $0.gpa <= 3.1 }, "gpa <= 3.1", context)
            try check(
                #Predicate<Student> { $0.name == "Ada" }, "name == 'Ada'", context,
                expected: ["Ada"])
            try check(#Predicate<Student> { $0.name != "Ada" }, "name != 'Ada'", context)
            try check(
                #Predicate<Student> { $0.active }, "active == YES", context,
                expected: ["Ada", "Cid", "Dee"])
            try check(#Predicate<Student> { $0.active == false }, "active == NO", context)
        }
    }

    @Test("&&, || and ! as AND, OR and NOT")
    func logic() throws {
        try KeyPathSchool.withSchool { context in
            try check(
                #Predicate<Student> { $0.name.starts(with: "A") && $0.age > 20 },
                "name BEGINSWITH 'A' AND age > 20", context, expected: ["Ada"])
            try check(
                #Predicate<Student> { $0.age > 20 && $0.gpa < 3.6 || !$0.active },
                "age > 20 AND gpa < 3.6 OR NOT active == YES", context,
                expected: ["Bob", "Cid", "Dee", "Émile"])
        }
    }

    @Test("arithmetic: + - * on values, / and % of integers as trunc: and modulus:by:")
    func arithmetic() throws {
        try KeyPathSchool.withSchool { context in
            try check(
                #Predicate<Student> { $0.gpa * 2.0 + 1.0 > 7.0 }, "gpa * 2.0 + 1.0 > 7.0",
                context, expected: ["Ada", "Cid", "Dee"])
            try check(#Predicate<Student> { $0.age - 1 >= 24 }, "age - 1 >= 24", context)
            try check(#Predicate<Student> { $0.gpa / 2.0 > 1.7 }, "gpa / 2.0 > 1.7", context)
            try check(
                #Predicate<Student> { $0.age / 2 == 10 }, "trunc:(age / 2) == 10", context,
                expected: ["Ada"])
            try check(
                #Predicate<Student> { $0.age % 2 == 1 }, "modulus:by:(age, 2) == 1", context,
                expected: ["Ada", "Bob", "Cid"])
            try check(#Predicate<Student> { -$0.age < -25 }, "-age < -25", context)
        }
    }

    @Test("nil checks, optional chaining, if-let and ??")
    func optionals() throws {
        try KeyPathSchool.withSchool { context in
            try check(
                #Predicate<Student> { $0.nickname == nil }, "nickname == nil", context,
                expected: ["Bob", "Dee"])
            try check(#Predicate<Student> { $0.nickname != nil }, "nickname != nil", context)
            try check(
                #Predicate<Student> { $0.advisor?.name == "Turing" }, "advisor.name == 'Turing'",
                context, expected: ["Ada", "Dee"])
            try check(
                #Predicate<Student> { ($0.nickname ?? "none") == "none" },
                "TERNARY(nickname != nil, nickname, 'none') == 'none'", context,
                expected: ["Bob", "Dee"])
            try check(
                #Predicate<Student> {
                    if let nickname = $0.nickname { nickname != "C" } else { false }
                }, "nickname != nil AND nickname != 'C'", context, expected: ["Ada", "Émile"])
            try check(
                #Predicate<Student> { $0.nickname.flatMap { $0 != "C" } ?? true },
                "nickname == nil OR nickname != 'C'", context)
            try check(
                #Predicate<Student> { $0.advisor!.name == "Hopper" }, "advisor.name == 'Hopper'",
                context, expected: ["Bob", "Émile"])
        }
    }

    @Test("strings: starts(with:) is BEGINSWITH, contains is CONTAINS")
    func strings() throws {
        try KeyPathSchool.withSchool { context in
            try check(
                #Predicate<Student> { $0.name.starts(with: "D") }, "name BEGINSWITH 'D'", context,
                expected: ["Dee"])
            try check(
                #Predicate<Student> { $0.name.contains("e") }, "name CONTAINS 'e'", context,
                expected: ["Dee", "Émile"])
        }
    }

    @Test("sequence contains is IN; ranges are BETWEEN and a half-open pair")
    func membership() throws {
        try KeyPathSchool.withSchool { context in
            let names = ["Ada", "Bob"]
            try check(
                #Predicate<Student> { names.contains($0.name) }, "name IN {'Ada', 'Bob'}",
                context, expected: ["Ada", "Bob"])
            try check(
                #Predicate<Student> { (21...25).contains($0.age) }, "age BETWEEN {21, 25}",
                context, expected: ["Ada", "Cid", "Émile"])
            try check(
                #Predicate<Student> { (21..<25).contains($0.age) }, "age >= 21 AND age < 25",
                context, expected: ["Ada", "Émile"])
        }
    }

    @Test("to-many: contains(where:), allSatisfy, filter and count are SUBQUERY and @count")
    func toMany() throws {
        try KeyPathSchool.withSchool { context in
            try check(
                #Predicate<Student> { $0.courses.contains { $0.title == "Math" } },
                "SUBQUERY(courses, $v1, $v1.title == 'Math').@count > 0", context,
                expected: ["Ada", "Dee"])
            try check(
                #Predicate<Student> { $0.courses.allSatisfy { $0.credits >= 3 } },
                "SUBQUERY(courses, $v1, NOT $v1.credits >= 3).@count == 0", context,
                expected: ["Ada", "Cid", "Émile"])
            try check(
                #Predicate<Student> { $0.courses.count >= 2 }, "courses.@count >= 2", context,
                expected: ["Ada", "Dee"])
            try check(
                #Predicate<Student> { $0.courses.isEmpty }, "courses.@count == 0", context,
                expected: ["Cid"])
            try check(
                #Predicate<Student> { $0.courses.filter { $0.credits > 2 }.count >= 2 },
                "SUBQUERY(courses, $v1, $v1.credits > 2).@count >= 2", context,
                expected: ["Ada", "Dee"])
            try check(
                #Predicate<Student> {
                    $0.courses.contains { course in
                        course.title == "Math" && course.students.contains { $0.age > 29 }
                    }
                },
                "SUBQUERY(courses, $v1, $v1.title == 'Math'"
                    + " AND SUBQUERY($v1.students, $v2, $v2.age > 29).@count > 0).@count > 0",
                context, expected: ["Ada", "Dee"])
        }
    }

    @Test("conditionals: of conditions an AND/OR, of values TERNARY")
    func conditionals() throws {
        try KeyPathSchool.withSchool { context in
            try check(
                #Predicate<Student> { $0.age > 24 ? $0.gpa > 3.2 : $0.active },
                "(age > 24 AND gpa > 3.2) OR (NOT age > 24 AND active == YES)", context,
                expected: ["Ada", "Dee"])
            try check(
                #Predicate<Student> { ($0.age > 24 ? $0.gpa : 0.0) > 3.2 },
                "TERNARY(age > 24, gpa, 0.0) > 3.2", context, expected: ["Dee"])
        }
    }

    @Test("FetchRequest takes a #Predicate")
    func fetchRequest() throws {
        try KeyPathSchool.withSchool { context in
            let request = try FetchRequest(predicate: #Predicate<Student> { $0.age > 24 })
            #expect(try context.fetch(request).map(\.name).sorted() == ["Cid", "Dee"])
        }
    }
}
