import Foundation
import Testing

@testable import ObjectGraph

@Suite("Persistent history: fetching, deleting, tokens")
struct HistoryFetchTests {
    /// A store with three transactions: the seed (3 inserts), a rename, a deletion.
    static func threeTransactions() throws -> (HistoryFixture, [HistoryTransaction]) {
        let fixture = try HistoryFixture()
        let (_, notes) = try fixture.seed()
        fixture.context.transactionAuthor = "editor"
        try notes[0].set("renamed", for: "title")
        try fixture.context.save()
        fixture.context.transactionAuthor = "cleaner"
        fixture.context.delete(notes[1])
        try fixture.context.save()
        let all = try fixture.all()
        try #require(all.count == 3)
        return (fixture, all)
    }

    @Test("after a token, after a date, one transaction")
    func afterTokenAndDate() throws {
        let (fixture, all) = try Self.threeTransactions()
        let coordinator = fixture.coordinator
        let after = try coordinator.fetchHistory(.fetchHistory(after: all[0].token))
        #expect(after.transactions.map(\.token) == [all[1].token, all[2].token])
        #expect(after.changes.count == all[1].changes.count + all[2].changes.count)
        #expect(
            try coordinator.fetchHistory(.fetchHistory(after: all[2].token)).transactions.isEmpty)
        let byDate = try coordinator.fetchHistory(.fetchHistory(after: all[0].timestamp))
        #expect(byDate.transactions.map(\.token) == [all[1].token, all[2].token])
        let one = try coordinator.fetchHistory(.fetchTransaction(all[1].token))
        #expect(one.transactions == [all[1]])
        let current = try coordinator.currentHistoryToken(forStore: fixture.store)
        #expect(current == all[2].token)
        #expect(all[0].token < all[1].token)
    }

    @Test("transactions only, changes only")
    func resultTypes() throws {
        let (fixture, all) = try Self.threeTransactions()
        var request = HistoryRequest()
        request.resultType = .transactionsOnly
        let bare = try fixture.context.execute(request)
        #expect(bare.transactions.map(\.token) == all.map(\.token))
        #expect(bare.transactions.allSatisfy { $0.changes.isEmpty })
        #expect(bare.changes.isEmpty)
        request.resultType = .changesOnly
        let changes = try fixture.context.execute(request)
        #expect(changes.transactions.isEmpty)
        #expect(changes.changes == all.flatMap(\.changes))
    }

    @Test("predicates on transactions and changes; a limit")
    func predicates() throws {
        let (fixture, all) = try Self.threeTransactions()
        var request = HistoryRequest()
        request.transactionPredicate = try Predicate(format: "author != %@", "tester")
        #expect(
            try fixture.context.execute(request).transactions.map(\.author) == [
                "editor", "cleaner",
            ])
        request.changePredicate = try Predicate(
            format: "changeType == 2 AND changedEntity == 'Note'")
        let deletions = try fixture.context.execute(request)
        #expect(deletions.transactions.map(\.token) == [all[2].token])
        #expect(deletions.changes.count == 1)
        #expect(deletions.changes.first?.tombstone?["title"] == .string("b"))
        request = HistoryRequest()
        request.changePredicate = try Predicate(format: "ANY updatedProperties == 'title'")
        #expect(try fixture.context.execute(request).transactions.map(\.token) == [all[1].token])
        request = HistoryRequest()
        request.fetchLimit = 2
        #expect(try fixture.context.execute(request).transactions.count == 2)
    }

    @Test("deleting before a token; an older token has expired (134301)")
    func deleteAndExpiry() throws {
        let (fixture, all) = try Self.threeTransactions()
        let coordinator = fixture.coordinator
        #expect(try coordinator.deleteHistory(before: all[1].token) == 2)
        // History after the deletion point is still complete.
        let rest = try coordinator.fetchHistory(.fetchHistory(after: all[1].token))
        #expect(rest.transactions.map(\.token) == [all[2].token])
        #expect(try fixture.all().map(\.token) == [all[2].token])
        let error = #expect(throws: HistoryError.self) {
            try coordinator.fetchHistory(.fetchHistory(after: all[0].token))
        }
        #expect(error == .expiredToken(all[0].token, oldestKept: all[2].token))
        #expect(error?.code == 134_301)
        #expect(throws: HistoryError.self) {
            try coordinator.fetchHistory(.fetchTransaction(all[0].token))
        }
        // Everything deleted: the last token still reads (nothing), an older one has expired.
        #expect(try coordinator.deleteHistory(before: Date().addingTimeInterval(60)) == 1)
        #expect(
            try coordinator.fetchHistory(.fetchHistory(after: all[2].token)).transactions.isEmpty)
        #expect(throws: HistoryError.self) {
            try coordinator.fetchHistory(.fetchHistory(after: all[1].token))
        }
        #expect(try coordinator.currentHistoryToken(forStore: fixture.store) == all[2].token)
    }

    @Test("tokens survive closing and reopening the store, and encode")
    func tokensAfterReopening() throws {
        let (fixture, all) = try Self.threeTransactions()
        let saved = try JSONEncoder().encode(all[0].token)
        try fixture.reopen()
        let token = try JSONDecoder().decode(HistoryToken.self, from: saved)
        #expect(token == all[0].token)
        #expect(HistoryToken(token.description) == token)
        let after = try fixture.coordinator.fetchHistory(.fetchHistory(after: token))
        #expect(after.transactions.map(\.token) == [all[1].token, all[2].token])
        #expect(
            try fixture.coordinator.currentHistoryToken(forStore: fixture.store) == all[2].token)
        try fixture.seed(folder: "home", notes: [])
        #expect(try fixture.all().last?.transactionNumber == 4)
    }

    @Test("a token of no store here is refused")
    func unknownStore() throws {
        let (fixture, _) = try Self.threeTransactions()
        let stranger = HistoryToken(storeIdentifier: "nowhere", transactionNumber: 1)
        #expect(throws: HistoryError.unknownStore("nowhere")) {
            try fixture.coordinator.fetchHistory(.fetchHistory(after: stranger))
        }
    }
}
