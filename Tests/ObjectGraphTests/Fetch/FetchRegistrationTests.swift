import Foundation
import SQLiteDatabase
import Testing

@testable import ObjectGraph

/// A person whose `awakeFromFetch`, for the person named "Ann", turns every other registered
/// object back into a fault (to check that a fetch still loads the rows after it).
final class RefreshingPerson: ManagedObject {
    override func awakeFromFetch() {
        guard let context, self["name"] as String? == "Ann" else { return }
        for object in context.registeredObjects where object !== self {
            try? context.refresh(object, mergeChanges: false)
        }
    }
}

/// A person whose `awakeFromFetch`, for the person named "Ann", fetches Bob (loaded) and
/// Cid's ID (a fault), so that both are registered before the outer fetch gets to their rows.
final class FetchingPerson: ManagedObject {
    nonisolated(unsafe) static var nested: [ManagedObject] = []

    override func awakeFromFetch() {
        guard let context, self["name"] as String? == "Ann" else { return }
        let bob = (try? context.fetch(FetchRegistrationTests.byName("name == 'Bob'"))) ?? []
        let cid =
            (try? context.fetchObjectIDs(FetchRegistrationTests.byName("name == 'Cid'"))) ?? []
        // Held here: the context keeps no object without changes alive.
        FetchingPerson.nested = bob + cid.compactMap { try? context.object(with: $0) }
    }
}

/// A person counting its `awakeFromFetch` calls.
final class CountingPerson: ManagedObject {
    var awakenings = 0

    override func awakeFromFetch() { awakenings += 1 }
}

@Suite("Fetched rows and registered objects (SQLite)")
struct FetchRegistrationTests {
    /// A league file with the people `names` (ages 20, 21, …), saved.
    static func people(_ folder: URL, _ names: [String]) throws -> URL {
        let url = folder.appendingPathComponent("People.sqlite")
        let context = try SQLiteStoreTests.open(url)
        for (index, name) in names.enumerated() {
            let person = try context.insert("Person")
            try person.set(name, for: "name")
            try person.set(20 + index, for: "age")
        }
        try context.save()
        return url
    }

    static func byName(_ predicate: String? = nil) throws -> FetchRequest<ManagedObject> {
        FetchRequest(
            entityName: "Person", predicate: try predicate.map { try Predicate(format: $0) },
            sortDescriptors: [SortDescriptor("name")])
    }

    @Test("fetching again gives the same instances and keeps their unsaved changes")
    func refetchKeepsInstances() throws {
        let folder = try TestSupport.makeTemporaryFolder()
        defer { TestSupport.removeTemporaryFolder(folder) }
        let context = try SQLiteStoreTests.open(try Self.people(folder, ["Ann", "Bob", "Cid"]))
        let first = try context.fetch(Self.byName())
        try first[1].set(99, for: "age")
        let second = try context.fetch(Self.byName())
        #expect(second.count == 3)
        #expect(zip(first, second).allSatisfy { $0 === $1 })
        #expect(second[1]["age"] as Int? == 99)
        #expect(second[1].changedKeys == ["age"])
        #expect(second[2]["age"] as Int? == 22)
    }

    @Test("a fault registered before a fetch is loaded by it, with the store's values")
    func faultLoadedByFetch() throws {
        let folder = try TestSupport.makeTemporaryFolder()
        defer { TestSupport.removeTemporaryFolder(folder) }
        let url = try Self.people(folder, ["Ann", "Bob"])
        let reader = try SQLiteStoreTests.open(url)
        let ids = try reader.fetchObjectIDs(Self.byName())
        let context = try SQLiteStoreTests.open(url)
        let fault = try context.object(with: ids[1])
        #expect(fault.isFault)
        let fetched = try context.fetch(Self.byName())
        #expect(fetched[1] === fault)
        #expect(fault.state == .loaded)
        #expect(fault["name"] as String? == "Bob")
        #expect(fault["age"] as Int? == 21)
        #expect(!fault.hasChanges)
    }

    @Test("rows skipped for loaded objects are read again when a hook faulted those objects")
    func hookFaultsLoadedObjects() throws {
        let folder = try TestSupport.makeTemporaryFolder()
        defer { TestSupport.removeTemporaryFolder(folder) }
        let url = try Self.people(folder, ["Ann", "Bob", "Cid"])
        let classes = ManagedObjectClasses()
        classes.register(RefreshingPerson.self, forEntity: "Person")
        let coordinator = StoreCoordinator(model: TestModels.league())
        try coordinator.addStore(type: .sqlite, at: url)
        let context = ManagedContext(coordinator: coordinator, classes: classes)
        // Bob and Cid are loaded first; fetching everyone then loads Ann, whose hook turns
        // Bob and Cid back into faults before their (value-less) rows are registered.
        let later = try context.fetch(Self.byName("name != 'Ann'"))
        #expect(later.count == 2)
        let everyone = try context.fetch(Self.byName())
        #expect(everyone.map { $0["name"] as String? } == ["Ann", "Bob", "Cid"])
        #expect(everyone.allSatisfy { !$0.isFault })
        #expect(everyone[1] === later[0])
        #expect(everyone[2]["age"] as Int? == 22)
    }

    @Test("objects a hook registers during a fetch stay the only ones for their IDs")
    func hookRegistersLaterRows() throws {
        let folder = try TestSupport.makeTemporaryFolder()
        defer { TestSupport.removeTemporaryFolder(folder) }
        let url = try Self.people(folder, ["Ann", "Bob", "Cid"])
        let classes = ManagedObjectClasses()
        classes.register(FetchingPerson.self, forEntity: "Person")
        let coordinator = StoreCoordinator(model: TestModels.league())
        try coordinator.addStore(type: .sqlite, at: url)
        let context = ManagedContext(coordinator: coordinator, classes: classes)
        let everyone = try context.fetch(Self.byName())
        let nested = FetchingPerson.nested
        FetchingPerson.nested = []
        try #require(nested.count == 2)
        #expect(everyone[1] === nested[0])
        #expect(everyone[2] === nested[1])
        #expect(everyone.map { $0["name"] as String? } == ["Ann", "Bob", "Cid"])
        #expect(everyone.allSatisfy { !$0.isFault && $0.context === context })
        #expect(context.registeredObjects.count == 3)
    }

    @Test("values stored with another storage class are converted as Core Data reads them")
    func storageClassConversions() throws {
        let folder = try TestSupport.makeTemporaryFolder()
        defer { TestSupport.removeTemporaryFolder(folder) }
        let url = try Self.people(folder, ["Ann"])
        let database = try Database(path: url.path)
        try database.execute(
            sql: "UPDATE ZPERSON SET ZAGE = ' 42', ZSCORE = 3, ZBORN = 100, ZEMAIL = 7")
        try database.close()
        let context = try SQLiteStoreTests.open(url)
        let person = try #require(try context.fetch(Self.byName()).first)
        #expect(person["age"] == .integer(42))
        #expect(person["score"] == .double(3))
        #expect(person["born"] == .date(Date(timeIntervalSinceReferenceDate: 100)))
        #expect(person["email"] == .string("7"))
    }

    @Test("a value that does not fit its attribute fails the fetch, naming it and the row")
    func unreadableValue() throws {
        let folder = try TestSupport.makeTemporaryFolder()
        defer { TestSupport.removeTemporaryFolder(folder) }
        let url = try Self.people(folder, ["Ann"])
        let database = try Database(path: url.path)
        try database.execute(sql: "UPDATE ZPERSON SET ZAGE = 70000")
        try database.close()
        let context = try SQLiteStoreTests.open(url)
        do {
            _ = try context.fetch(Self.byName())
            Issue.record("the fetch should have failed")
        } catch let error as StoreError {
            #expect("\(error)".contains("Person.age of row 1"))
        }
    }

    /// `count` names that sort in their index order.
    static func names(_ count: Int) -> [String] {
        (0..<count).map { "P" + String(100_000 + $0) }
    }

    /// A league file with `count` people named by ``names(_:)``, aged 20 + index % 50.
    static func crowd(_ folder: URL, _ count: Int) throws -> URL {
        let url = folder.appendingPathComponent("People.sqlite")
        let context = try SQLiteStoreTests.open(url)
        for (index, name) in names(count).enumerated() {
            let person = try context.insert("Person")
            try person.set(name, for: "name")
            try person.set(20 + index % 50, for: "age")
        }
        try context.save()
        return url
    }

    @Test("a fetch of many registration chunks keeps order, identity, faults and unsaved changes")
    func manyChunks() throws {
        let folder = try TestSupport.makeTemporaryFolder()
        defer { TestSupport.removeTemporaryFolder(folder) }
        let names = Self.names(700)
        let url = try Self.crowd(folder, 700)
        let ids = try SQLiteStoreTests.open(url).fetchObjectIDs(Self.byName())
        let context = try SQLiteStoreTests.open(url)
        // Registered before the fetch: faults (one in each chunk) and loaded, edited objects.
        let faults = try [3, 300, 599].map { try context.object(with: ids[$0]) }
        let edited = try context.fetch(Self.byName("name IN {'P100010', 'P100500'}"))
        try edited[0].set(1, for: "age")
        try edited[1].set(2, for: "age")
        let everyone = try context.fetch(Self.byName())
        #expect(everyone.map { $0["name"] as String? } == names)
        #expect(everyone.map(\.objectID) == ids)
        #expect(everyone[3] === faults[0] && everyone[300] === faults[1])
        #expect(everyone[599] === faults[2])
        #expect(faults.allSatisfy { !$0.isFault })
        #expect(everyone[10] === edited[0] && everyone[500] === edited[1])
        #expect(everyone[10]["age"] as Int? == 1 && everyone[500]["age"] as Int? == 2)
        #expect(everyone[11]["age"] as Int? == 31)
        #expect(Set(everyone.map(ObjectIdentifier.init)).count == 700)
        #expect(context.registeredObjects.count == 700)
        // Fetched again: the same instances, every row skipped as loaded.
        let again = try context.fetch(Self.byName())
        #expect(zip(everyone, again).allSatisfy { $0 === $1 })
    }

    @Test("objects of a subclass are awakened once each, after a fetch of many chunks")
    func subclassAwakenedOnce() throws {
        let folder = try TestSupport.makeTemporaryFolder()
        defer { TestSupport.removeTemporaryFolder(folder) }
        let url = try Self.crowd(folder, 600)
        let classes = ManagedObjectClasses()
        classes.register(CountingPerson.self, forEntity: "Person")
        let coordinator = StoreCoordinator(model: TestModels.league())
        try coordinator.addStore(type: .sqlite, at: url)
        let context = ManagedContext(coordinator: coordinator, classes: classes)
        let everyone = try context.fetch(FetchRequest<CountingPerson>(entityName: "Person"))
        #expect(everyone.count == 600)
        #expect(everyone.allSatisfy { $0.awakenings == 1 && $0.state == .loaded })
        _ = try context.fetch(FetchRequest<CountingPerson>(entityName: "Person"))
        #expect(everyone.allSatisfy { $0.awakenings == 1 })
    }
}
