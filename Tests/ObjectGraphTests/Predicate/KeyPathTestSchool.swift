import Foundation
import Testing

@testable import ObjectGraph

/// Hand-written classes that name their key paths by a static table, as generated classes do,
/// and a school of five students on SQLite for the key-path and `#Predicate` tests.
enum KeyPathSchool {
    /// A student: attributes of every kind the predicates compare, a to-one and a to-many.
    final class Student: ManagedObject, KeyPathNaming {
        var name: String { self["name"] ?? "" }
        var age: Int { self["age"] ?? 0 }
        var gpa: Double { self["gpa"] ?? 0 }
        var nickname: String? { self["nickname"] }
        var active: Bool { self["active"] ?? false }
        var advisor: Teacher? { (try? object(for: "advisor")) as? Teacher }
        var courses: [Course] {
            ((try? objects(for: "courses")) ?? []).compactMap { $0 as? Course }
        }
        /// Not a model property: not in the table.
        var cache: Int { 0 }
        /// The advisor as a plain object (for a type check).
        var mentor: ManagedObject? { advisor }

        nonisolated(unsafe) static let keyPathNames: [AnyKeyPath: String] = [
            \Student.name: "name", \Student.age: "age", \Student.gpa: "gpa",
            \Student.nickname: "nickname", \Student.active: "active",
            \Student.advisor: "advisor", \Student.courses: "courses",
            \Student.advisor?.name: "advisor.name",
        ]
        static func propertyName(for keyPath: AnyKeyPath) -> String? { keyPathNames[keyPath] }
    }

    /// A course.
    final class Course: ManagedObject, KeyPathNaming {
        var title: String { self["title"] ?? "" }
        var credits: Int { self["credits"] ?? 0 }
        var students: [Student] {
            ((try? objects(for: "students")) ?? []).compactMap { $0 as? Student }
        }
        nonisolated(unsafe) static let keyPathNames: [AnyKeyPath: String] = [
            \Course.title: "title", \Course.credits: "credits", \Course.students: "students",
        ]
        static func propertyName(for keyPath: AnyKeyPath) -> String? { keyPathNames[keyPath] }
    }

    /// A teacher.
    final class Teacher: ManagedObject, KeyPathNaming {
        var name: String { self["name"] ?? "" }
        static func propertyName(for keyPath: AnyKeyPath) -> String? {
            keyPath == \Teacher.name ? "name" : nil
        }
    }

    static func model() -> EntityModel {
        var student = Entity("Student")
        student.attributes = [
            Attribute("name", type: .string), Attribute("age", type: .integer32),
            Attribute("gpa", type: .double), Attribute("nickname", type: .string),
            Attribute("active", type: .boolean),
        ]
        student.relationships = [
            Relationship("advisor", destination: "Teacher", inverse: "advisees"),
            Relationship("courses", destination: "Course", toMany: true, inverse: "students"),
        ]
        var course = Entity("Course")
        course.attributes = [
            Attribute("title", type: .string), Attribute("credits", type: .integer16),
        ]
        course.relationships = [
            Relationship("students", destination: "Student", toMany: true, inverse: "courses")
        ]
        var teacher = Entity("Teacher")
        teacher.attributes = [Attribute("name", type: .string)]
        teacher.relationships = [
            Relationship("advisees", destination: "Student", toMany: true, inverse: "advisor")
        ]
        return EntityModel(entities: [student, course, teacher])
    }

    /// A school saved to SQLite in `folder`; a fresh context on it.
    static func context(in folder: URL) throws -> ManagedContext {
        let classes = ManagedObjectClasses()
        classes.register(Student.self, forEntity: "Student")
        classes.register(Course.self, forEntity: "Course")
        classes.register(Teacher.self, forEntity: "Teacher")
        let coordinator = StoreCoordinator(model: model())
        try coordinator.addStore(type: .sqlite, at: folder.appendingPathComponent("school.sqlite"))
        let writer = ManagedContext(coordinator: coordinator, classes: classes)
        var courses: [String: ManagedObject] = [:]
        for (title, credits) in [("Math", 5), ("Logic", 3), ("Art", 2)] {
            let course = try writer.insert("Course")
            try course.set(title, for: "title")
            try course.set(credits, for: "credits")
            courses[title] = course
        }
        var teachers: [String: ManagedObject] = [:]
        for name in ["Turing", "Hopper"] {
            let teacher = try writer.insert("Teacher")
            try teacher.set(name, for: "name")
            teachers[name] = teacher
        }
        let rows: [(String, Int, Double, String?, Bool, String?, [String])] = [
            ("Ada", 21, 3.9, "Addy", true, "Turing", ["Math", "Logic"]),
            ("Bob", 19, 2.5, nil, false, "Hopper", ["Art"]),
            ("Cid", 25, 3.1, "C", true, nil, []),
            ("Dee", 30, 3.5, nil, true, "Turing", ["Math", "Art", "Logic"]),
            ("Émile", 22, 2.9, "em", false, "Hopper", ["Logic"]),
        ]
        for (name, age, gpa, nickname, active, advisor, taken) in rows {
            let student = try writer.insert("Student")
            try student.set(name, for: "name")
            try student.set(age, for: "age")
            try student.set(gpa, for: "gpa")
            try student.set(nickname, for: "nickname")
            try student.set(active, for: "active")
            try student.setObject(advisor.flatMap { teachers[$0] }, for: "advisor")
            try student.setObjects(taken.compactMap { courses[$0] }, for: "courses")
        }
        try writer.save()
        return ManagedContext(coordinator: coordinator, classes: classes)
    }

    /// The names of the students `predicate` fetches, sorted.
    static func names(_ context: ManagedContext, _ predicate: ObjectGraph.Predicate) throws
        -> [String]
    {
        try context.fetch(FetchRequest<Student>(predicate: predicate)).map(\.name).sorted()
    }

    /// Checks that `converted` is the predicate `format` parses to and that both fetch the
    /// same students from SQLite (and at least `expected` when given).
    static func check(
        _ converted: ObjectGraph.Predicate, _ format: String, _ context: ManagedContext,
        expected: [String]? = nil, sourceLocation: Testing.SourceLocation = #_sourceLocation
    ) throws {
        let parsed = try ObjectGraph.Predicate(format: format)
        #expect(converted == parsed, "\(converted) ≠ \(parsed)", sourceLocation: sourceLocation)
        let fromConverted = try names(context, converted)
        #expect(fromConverted == (try names(context, parsed)), sourceLocation: sourceLocation)
        if let expected {
            #expect(fromConverted == expected, sourceLocation: sourceLocation)
        }
    }
}

extension KeyPathSchool {
    /// Runs `body` with a context on a fresh school in a temporary folder.
    static func withSchool(_ body: (ManagedContext) throws -> Void) throws {
        let folder = try TestSupport.makeTemporaryFolder()
        defer { TestSupport.removeTemporaryFolder(folder) }
        try body(try context(in: folder))
    }
}
