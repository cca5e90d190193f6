// The School example: a school's worth of objects through ObjectGraph's Core Data model —
// insert, fetch with predicates and sorts, edit, undo and redo, delete with cascade, save.
// Its classes (Student, Course, …) are generated at build time from School.xcdatamodeld (a
// link to Models/School.xcdatamodeld) by the ObjectGraphCodegen plugin, as Xcode does.
//
//     swift run School                 # SQLite store in a fresh temporary folder
//     swift run School --store memory  # in-memory store

import Foundation
import ObjectGraph

@MainActor func run() throws {
    let arguments = CommandLine.arguments.dropFirst()
    let storeType: StoreType = arguments.contains("memory") ? .inMemory : .sqlite
    let folder = FileManager.default.temporaryDirectory
        .appendingPathComponent("ObjectGraph-School-\(ProcessInfo.processInfo.processIdentifier)")
    defer { try? FileManager.default.removeItem(at: folder) }

    let container = try PersistentContainer(name: "School", storeType: storeType, directory: folder)
    let context = container.viewContext
    context.undoManager = UndoManager()  // contexts record no undo unless given a manager
    print("Loaded model School: \(container.model.entities.map(\.name).joined(separator: ", "))")
    print("Store: \(container.store.type) \(container.store.url?.path ?? "(memory)")")

    // Insert a school's worth of objects.
    let room = try context.insert(Classroom.self)
    room.number = "A101"
    room.capacity = 40
    let teacher = try context.insert(Teacher.self)
    teacher.id = UUID()
    teacher.name = "Grace Hopper"
    var courses: [Course] = []
    for (code, title) in [("MATH101", "Algebra"), ("CS101", "Programming"), ("HIST110", "History")]
    {
        let course = try context.insert(Course.self)
        course.code = code
        course.title = title
        course.classroom = room
        course.teacher = teacher
        for number in 1...3 {
            let lesson = try context.insert(Lesson.self)
            lesson.topic = "\(title) \(number)"
            course.addToLessons(lesson)
        }
        courses.append(course)
    }
    let names = [
        "Ada Lovelace", "Alan Turing", "Barbara Liskov", "Edsger Dijkstra", "Ken Thompson",
    ]
    for (index, name) in names.enumerated() {
        let student = try context.insert(Student.self)
        student.id = UUID()
        student.name = name
        student.studentNumber = Int32(index + 1)
        student.gradePointAverage = 2.5 + Double(index) * 0.35
        student.addToCourses(courses[index % 3])
        student.addToCourses(courses[(index + 1) % 3])
    }
    try context.save()
    print("Inserted and saved \(context.registeredObjects.count) objects")

    // Fetch with predicates and sorts.
    var honours = FetchRequest<Student>()
    honours.predicate = try Predicate(format: "gradePointAverage >= %@", 3.0)
    honours.sortDescriptors = [SortDescriptor("gradePointAverage", ascending: false)]
    for student in try context.fetch(honours) {
        print("  honours: \(student.name) (\(student.gradePointAverage))")
    }
    let inCS = try container.model.fetchRequest(
        fromTemplate: "StudentsInCourse", variables: ["CODE": "CS101"])
    let csNames = try context.fetch(inCS).compactMap { ($0 as? Student)?.name }.sorted()
    print("  in CS101: \(csNames.joined(separator: ", "))")
    var byTitle = FetchRequest<Course>()
    byTitle.sortDescriptors = [SortDescriptor("title")]
    let titles = try context.fetch(byTitle).map(\.title)
    print("  courses by title: \(titles.joined(separator: ", "))")

    // Edit, undo and redo.
    let edited = try require(try context.fetch(honours).last, "Ada")
    edited.name = "Augusta Ada King"
    print("Edited name: \(edited.name)")
    context.undo()
    print("After undo: \(edited.name)")
    context.redo()
    print("After redo: \(edited.name)")

    // Delete with cascade: a course's lessons go with it.
    let lessonCount = { try context.count(for: FetchRequest<Lesson>()) }
    print("Lessons before deleting Algebra: \(try lessonCount())")
    context.delete(courses[0])
    print("Lessons after deleting Algebra (cascade): \(try lessonCount())")
    context.undo()
    print("Lessons after undo: \(try lessonCount())")
    context.redo()
    try context.save()
    print("Saved; courses left: \(try context.count(for: FetchRequest<Course>()))")
}

/// Unwraps `value` or throws a readable error (examples never trap).
func `require`<T>(_ value: T?, _ what: String) throws -> T {
    guard let value else { throw ObjectGraphError.unsupported("\(what) was not found") }
    return value
}

do {
    try run()
} catch {
    FileHandle.standardError.write(Data("School example failed: \(error)\n".utf8))
    exit(1)
}
