import Foundation
import Testing

@testable import ObjectGraph

private typealias Student = KeyPathSchool.Student

/// Constructs of `#Predicate` without a Core Data meaning throw an error naming them; never a
/// different query.
@Suite struct FoundationPredicateErrorTests {
    private func construct(_ predicate: Foundation.Predicate<Student>) -> String? {
        do {
            _ = try ObjectGraph.Predicate(predicate)
            return nil
        } catch {
            guard case .unsupportedConstruct(let name, _) = error else { return "\(error)" }
            return name
        }
    }

    @Test("a regular expression, an index, first, a type check are refused by name")
    func unsupportedConstructs() {
        #expect(
            construct(#Predicate<Student> { $0.name.contains(/A+/) })
                == "PredicateExpressions.StringContainsRegex")
        #expect(
            construct(#Predicate<Student> { $0.courses[0].title == "Math" })
                == "PredicateExpressions.CollectionIndexSubscript")
        #expect(
            construct(#Predicate<Student> { $0.courses.first?.title == "Math" })
                == "PredicateExpressions.KeyPath")
        #expect(
            construct(#Predicate<Student> { $0.mentor is KeyPathSchool.Teacher })
                == "PredicateExpressions.TypeCheck")
    }

    @Test("the outer object inside a to-many's closure is refused: SUBQUERY cannot name it")
    func outerObjectInSubquery() {
        #expect(
            construct(
                #Predicate<Student> { student in
                    student.courses.contains { course in
                        course.title == "Logic" && student.courses.count > 2
                    }
                }) == "PredicateExpressions.Variable")
    }

    @Test("a key path the class does not name is refused naming it and the type")
    func unnamedKeyPath() {
        #expect(
            throws: FoundationPredicateError.keyPath(
                .unnamedKeyPath("\(\Student.cache as AnyKeyPath)", type: "\(Student.self)"))
        ) {
            try ObjectGraph.Predicate(#Predicate<Student> { $0.cache > 0 })
        }
    }

    @Test("a captured value with no predicate form is refused naming its type")
    func unsupportedValue() {
        let range = 20...25
        #expect {
            try ObjectGraph.Predicate(#Predicate<Student> { range.contains($0.age) })
        } throws: { error in
            "\(error)".contains("ClosedRange")
        }
    }
}
