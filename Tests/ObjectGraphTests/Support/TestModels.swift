import Foundation

@testable import ObjectGraph

/// Small models built in code for the object-graph tests.
enum TestModels {
    /// Team ↔ Person (to-many ↔ to-one, nullify/cascade), Person ↔ Person spouse (one-to-one,
    /// self-inverse), Person ↔ Club many-to-many, Team.roster ordered, Badge deny.
    static func league() -> EntityModel {
        var person = Entity("Person")
        let name = Attribute("name", type: .string, isOptional: false).bounded("1", "20")
        let age = Attribute("age", type: .integer16).bounded("0", "150")
        var email = Attribute("email", type: .string)
        email.regularExpression = "[^@]+@[^@]+"
        var born = Attribute("born", type: .date)
        born.minDateTimeInterval = 0
        person.attributes = [
            name, age, email, born, Attribute("score", type: .double, defaultValueString: "1.5"),
            Attribute("memo", type: .string, isTransient: true),
        ]
        person.relationships = [
            Relationship("team", destination: "Team", inverse: "members"),
            Relationship("spouse", destination: "Person", inverse: "spouse"),
            Relationship("clubs", destination: "Club", toMany: true, inverse: "members"),
            Relationship(
                "badges", destination: "Badge", toMany: true, inverse: "owner", deleteRule: .deny),
        ]
        person.uniquenessConstraints = [["email"]]
        var player = Entity("Player", parent: "Person")
        player.attributes = [Attribute("number", type: .integer32)]
        var team = Entity("Team")
        team.attributes = [Attribute("name", type: .string)]
        team.relationships = [
            Relationship(
                "members", destination: "Person", toMany: true, inverse: "team",
                deleteRule: .cascade),
            Relationship(
                "roster", destination: "Person", toMany: true, isOrdered: true),
            Relationship("captain", destination: "Person", deleteRule: .noAction),
        ]
        var club = Entity("Club")
        club.attributes = [Attribute("title", type: .string)]
        club.relationships = [
            Relationship("members", destination: "Person", toMany: true, inverse: "clubs")
        ]
        var badge = Entity("Badge")
        badge.attributes = [Attribute("label", type: .string)]
        badge.relationships = [Relationship("owner", destination: "Person", inverse: "badges")]
        return EntityModel(entities: [person, player, team, club, badge])
    }

    /// A context on an in-memory store of `model`, with an undo manager.
    static func context(_ model: EntityModel = league()) throws -> ManagedContext {
        let coordinator = StoreCoordinator(model: model)
        try coordinator.addStore(type: .inMemory)
        return ManagedContext(coordinator: coordinator, undoManager: UndoManager())
    }
}
