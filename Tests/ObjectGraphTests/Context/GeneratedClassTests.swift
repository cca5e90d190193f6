import Foundation
import ObjectGraph
import Testing

/// The classes `objectgraph codegen` generates, through the copy generated from
/// `Models/TypedSchool.xcdatamodeld` into `Tests/ObjectGraphTests/Generated` (a test of the CLI
/// checks that generating again gives the same text).
@Suite("Generated classes")
struct GeneratedClassTests {
    /// A context on a new SQLite store of the School model, with its own class registry (so
    /// the generated classes register themselves there, not in the shared one).
    private static func context(folder: URL) throws -> ManagedContext {
        let model = try EntityModel(
            contentsOf: TestSupport.models.appendingPathComponent("TypedSchool.xcdatamodeld"))
        let coordinator = StoreCoordinator(model: model)
        try coordinator.addStore(
            type: .sqlite, at: folder.appendingPathComponent("School.sqlite"))
        return ManagedContext(coordinator: coordinator, classes: ManagedObjectClasses())
    }

    /// The TypedSchool model, its entity "Person" changed by `edit`.
    private static func school(editingPerson edit: (inout Entity) -> Void) throws -> EntityModel {
        let school = try EntityModel(
            contentsOf: TestSupport.models.appendingPathComponent("TypedSchool.xcdatamodeld"))
        return EntityModel(
            entities: school.entities.map { entity in
                var entity = entity
                if entity.name == "Person" { edit(&entity) }
                return entity
            })
    }

    private static func student(_ context: ManagedContext, _ name: String, number: Int32) throws
        -> TypedStudent
    {
        let student = try context.insert(TypedStudent.self)
        student.name = name
        student.id = UUID()
        student.studentNumber = number
        return student
    }

    private static func course(_ context: ManagedContext, _ code: String) throws -> TypedCourse {
        let course = try context.insert(TypedCourse.self)
        course.code = code
        course.title = "Course \(code)"
        return course
    }

    @Test("typed attributes read and write without throwing, every type")
    func attributes() throws {
        let folder = try TestSupport.makeTemporaryFolder()
        defer { TestSupport.removeTemporaryFolder(folder) }
        let context = try Self.context(folder: folder)
        let ada = try Self.student(context, "Ada", number: 7)
        #expect(ada.name == "Ada" && ada.studentNumber == 7)
        #expect(ada.isActive)  // the model's default
        #expect(ada.email == nil)
        ada.email = "ada@example.com"
        ada.gradePointAverage = 3.5
        ada.birthday = Date(timeIntervalSince1970: 0)
        ada.photo = Data([1, 2, 3])
        ada.website = URL(string: "https://example.com/ada")
        #expect(ada.email == "ada@example.com" && ada.gradePointAverage == 3.5)
        #expect(ada.birthday == Date(timeIntervalSince1970: 0) && ada.photo == Data([1, 2, 3]))
        #expect(ada.website?.host == "example.com")
        ada.email = nil
        #expect(ada.email == nil && ada["email"] == .null)
        let course = try Self.course(context, "M1")
        course.fee = Decimal(string: "12.50")
        course.rating = 4.5
        course.credits = 4
        course.syllabus = ["sets", "proofs"]
        #expect(course.fee == Decimal(string: "12.50") && course.rating == 4.5)
        #expect(course.credits == 4 && course.syllabus == ["sets", "proofs"])
        // The typed and the string-keyed API see the same values.
        #expect(course["credits"] == .integer(4) && course.code == course["code"])
    }

    @Test("to-many relationships: insert, remove and Xcode's accessors keep inverses")
    func toMany() throws {
        let folder = try TestSupport.makeTemporaryFolder()
        defer { TestSupport.removeTemporaryFolder(folder) }
        let context = try Self.context(folder: folder)
        let ada = try Self.student(context, "Ada", number: 1)
        let alan = try Self.student(context, "Alan", number: 2)
        let course = try Self.course(context, "C1")
        course.students.insert(ada)
        #expect(course.students.contains(ada) && ada.courses.contains(course))
        #expect(course.students.insert(ada) == false)
        course.addToStudents(alan)
        #expect(course.students.count == 2 && alan.courses.members.first === course)
        course.students.remove(ada)
        #expect(!course.students.contains(ada) && ada.courses.isEmpty)
        course.removeFromStudents(alan)
        #expect(course.students.isEmpty && alan.courses.isEmpty)
        course.students = [ada, alan]
        #expect(Set(course.students.map(\.name)) == ["Ada", "Alan"])
        let teacher = try context.insert(TypedTeacher.self)
        course.teacher = teacher
        #expect(teacher.courses.contains(course) && course.teacher === teacher)
        course.teacher = nil
        #expect(teacher.courses.isEmpty)
    }

    @Test("ordered to-many relationships keep order")
    func ordered() throws {
        let folder = try TestSupport.makeTemporaryFolder()
        defer { TestSupport.removeTemporaryFolder(folder) }
        let context = try Self.context(folder: folder)
        let course = try Self.course(context, "O1")
        var lessons: [TypedLesson] = []
        for topic in ["b", "c", "a", "d"] {
            let lesson = try context.insert(TypedLesson.self)
            lesson.topic = topic
            lessons.append(lesson)
        }
        course.lessons.append(lessons[0])
        course.addToLessons(lessons[1])
        course.insertIntoLessons(lessons[2], at: 0)
        #expect(course.lessons.map(\.topic) == ["a", "b", "c"])
        #expect(lessons[2].course === course)
        course.replaceLessons(at: 1, with: lessons[3])
        #expect(course.lessons.map(\.topic) == ["a", "d", "c"])
        var replacement: RelatedList<TypedLesson> = [lessons[1], lessons[0]]
        replacement.insert(lessons[3], at: 1)
        course.lessons = replacement
        #expect(course.lessons.map(\.topic) == ["c", "d", "b"] && lessons[2].course == nil)
        course.lessons = [lessons[2], lessons[3], lessons[1]]
        #expect(course.lessons.map(\.topic) == ["a", "d", "c"])
        course.removeFromLessons(at: 0)
        #expect(course.lessons.map(\.topic) == ["d", "c"] && lessons[2].course == nil)
        #expect(
            course.lessons.first?.topic == "d" && course.lessons.firstIndex(of: lessons[1]) == 1)
    }

    @Test("saved through typed properties, fetched as the generated classes")
    func roundTrip() throws {
        let folder = try TestSupport.makeTemporaryFolder()
        defer { TestSupport.removeTemporaryFolder(folder) }
        let context = try Self.context(folder: folder)
        let ada = try Self.student(context, "Ada", number: 1)
        let course = try Self.course(context, "R1")
        course.syllabus = ["logic"]
        course.students.insert(ada)
        let lesson = try context.insert(TypedLesson.self)
        lesson.topic = "intro"
        course.lessons.append(lesson)
        try context.save()

        // A new context with a new registry: the typed fetch registers the classes there.
        let reader = ManagedContext(
            coordinator: context.coordinator, classes: ManagedObjectClasses())
        var request = TypedCourse.fetchRequest()
        request.predicate = try Predicate(format: "code == %@", "R1")
        let courses = try reader.fetch(request)
        #expect(courses.count == 1)
        let fetched = try #require(courses.first)
        #expect(fetched.syllabus == ["logic"] && fetched.title == "Course R1")
        #expect(fetched.students.map(\.name) == ["Ada"])
        #expect(fetched.lessons.map(\.topic) == ["intro"])
        // Objects of other entities reached from it are their generated classes too.
        #expect(try reader.fetch(FetchRequest(entityName: "Student")).first is TypedStudent)
        let students = try reader.fetch(TypedStudent.fetchRequest())
        #expect(students.map(\.studentNumber) == [1])
        // Key paths of the generated classes in predicates and sort descriptors.
        var byKeyPath = TypedStudent.fetchRequest()
        byKeyPath.predicate = \TypedStudent.studentNumber == 1 && \TypedStudent.name == "Ada"
        byKeyPath.sortDescriptors = [try SortDescriptor(\TypedStudent.name)]
        #expect(try reader.fetch(byKeyPath).map(\.name) == ["Ada"])
        #expect(TypedStudent.entityName == "Student" && TypedPerson.entityName == "Person")
    }

    @Test("a write of another context's object is reported at validate and save, not dropped")
    func wrongContext() throws {
        let folder = try TestSupport.makeTemporaryFolder()
        defer { TestSupport.removeTemporaryFolder(folder) }
        let context = try Self.context(folder: folder)
        let other = ManagedContext(
            coordinator: context.coordinator, classes: ManagedObjectClasses())
        let course = try Self.course(context, "W1")
        let stranger = try Self.student(other, "Eve", number: 9)
        let foreignTeacher = try other.insert(TypedTeacher.self)
        course.teacher = foreignTeacher
        course.students.insert(stranger)
        #expect(course.teacher == nil && course.students.isEmpty)
        #expect(throws: ValidationError.self) { try course.validateForInsert() }
        do {
            try context.save()
            Issue.record("the save should fail")
        } catch SaveError.validation(let error) {
            let rejected = error.problems.filter { $0.rule == .rejectedWrite }
            #expect(Set(rejected.map(\.property)) == ["teacher", "students"])
            #expect(rejected.allSatisfy { $0.entity == "Course" && $0.objectID == course.objectID })
            #expect(
                rejected.first { $0.property == "teacher" }?.value
                    == .objectID(foreignTeacher.objectID))
        }
        // Writing the property again successfully clears it.
        course.teacher = nil
        course.students = []
        try context.save()
        #expect(course.objectID.isTemporary == false)
    }

    @Test("a rejected write of an unchanged object still fails the save; rollback clears it")
    func rejectedWriteOfUnchangedObject() throws {
        let folder = try TestSupport.makeTemporaryFolder()
        defer { TestSupport.removeTemporaryFolder(folder) }
        let context = try Self.context(folder: folder)
        let course = try Self.course(context, "U1")
        try context.save()
        let other = ManagedContext(
            coordinator: context.coordinator, classes: ManagedObjectClasses())
        course.teacher = try other.insert(TypedTeacher.self)
        #expect(throws: SaveError.self) { try context.save() }
        context.rollback()
        try context.save()
    }

    @Test("one class used with two models whose positions differ reads and writes the right slot")
    func twoModels() throws {
        let school = try EntityModel(
            contentsOf: TestSupport.models.appendingPathComponent("TypedSchool.xcdatamodeld"))
        // The same entities, TypedPerson with one more attribute first: every position moves.
        let shifted = try Self.school {
            $0.attributes.insert(Attribute("alias", type: .string), at: 0)
        }
        var contexts: [ManagedContext] = []
        for model in [school, shifted] {
            let coordinator = StoreCoordinator(model: model)
            try coordinator.addStore()
            contexts.append(
                ManagedContext(coordinator: coordinator, classes: ManagedObjectClasses()))
        }
        let first = try Self.student(contexts[0], "Ada", number: 1)
        let second = try Self.student(contexts[1], "Bea", number: 2)
        let teacher = try contexts[1].insert(TypedTeacher.self)
        for round in 0..<3 {
            first.name = "Ada \(round)"
            second.name = "Bea \(round)"
            teacher.name = "Tim \(round)"
            #expect(first.name == "Ada \(round)" && first["name"] == .string("Ada \(round)"))
            #expect(second.name == "Bea \(round)" && second["name"] == .string("Bea \(round)"))
            #expect(teacher.name == "Tim \(round)" && second["alias"] == .null)
        }
    }

    @Test("an attribute the model at run time lacks reads as absent; its write fails the save")
    func attributeMissingFromModel() throws {
        // TypedPerson (and so TypedStudent) without the "email" its generated code names.
        let trimmed = try Self.school { $0.attributes.removeAll { $0.name == "email" } }
        let coordinator = StoreCoordinator(model: trimmed)
        try coordinator.addStore()
        let context = ManagedContext(coordinator: coordinator, classes: ManagedObjectClasses())
        let student = try Self.student(context, "Ada", number: 1)
        student.email = "ada@example.com"
        #expect(student.email == nil && student.name == "Ada" && student.studentNumber == 1)
        do {
            try context.save()
            Issue.record("the save should fail")
        } catch SaveError.validation(let error) {
            let rejected = error.problems.filter { $0.rule == .rejectedWrite }
            #expect(rejected.map(\.property) == ["email"])
            #expect(rejected.allSatisfy { $0.objectID == student.objectID })
        }
    }

    @Test("key paths name model properties, inherited ones with the subclass as root")
    func keyPathNames() {
        #expect(TypedStudent.propertyName(for: \TypedStudent.name) == "name")
        #expect(TypedStudent.propertyName(for: \TypedStudent.courses) == "courses")
        #expect(TypedStudent.propertyName(for: \TypedPerson.email) == "email")
        #expect(TypedCourse.propertyName(for: \TypedCourse.teacher?.name) == "teacher.name")
        #expect(TypedCourse.propertyName(for: \TypedCourse.lessons) == "lessons")
        #expect(TypedCourse.propertyName(for: \TypedStudent.name) == nil)
    }
}
