import Foundation
import Testing

@testable import ObjectGraph

@Suite("Slots")
struct SlotTests {
    @Test("a to-one fault keeps its target's ID, unboxed for permanent keys, in a 24-byte slot")
    func toOneFaults() throws {
        let space = ObjectIDSpace.named("Team", storeIdentifier: "S")
        let permanent = ObjectID(space: space, key: .permanent(42))
        let temporary = ObjectID(space: space, key: ObjectID.newTemporaryKey())
        guard case .toOneFault(let faultSpace, 42) = Slot.fault(to: permanent) else {
            Issue.record("a permanent key is held unboxed")
            return
        }
        #expect(faultSpace === space)
        #expect(Slot.fault(to: permanent).faultTarget == permanent)
        guard case .toOneFaultID(temporary) = Slot.fault(to: temporary) else {
            Issue.record("a temporary key is held whole")
            return
        }
        #expect(Slot.fault(to: temporary).faultTarget == temporary)
        guard case .toOne(nil) = Slot.fault(to: nil) else {
            Issue.record("no target needs no resolving")
            return
        }
        #expect(Slot.fault(to: nil).faultTarget == nil)
        #expect(Slot.value(.integer(1)).faultTarget == nil)
        #expect(Slot.fault(to: permanent).storedValue == .toOne(permanent))
        #expect(MemoryLayout<Slot>.stride == 24)
    }

    @Test("a pending row is one reference: 8 bytes a row in a store's lists")
    func pendingRowSize() {
        #expect(MemoryLayout<PendingEntry>.size == 8)
    }

    @Test("original slots: one word in the object; entries found, updated and walked in order")
    func originalSlots() {
        #expect(MemoryLayout<OriginalSlots>.size == 8)
        var originals = OriginalSlots.none
        #expect(originals.isEmpty && originals.slot(at: 0) == nil)
        originals.append(.value(.integer(1)), at: 3)
        guard case .value(.integer(1))? = originals.slot(at: 3) else {
            Issue.record("one entry is found")
            return
        }
        originals.append(.toManyFault(nil), at: 5)
        originals.append(.value(.string("a")), at: 0)
        originals.update(at: 5) { _ in .toManyFault([]) }
        guard case .toManyFault([])? = originals.slot(at: 5) else {
            Issue.record("an entry is updated")
            return
        }
        var positions: [Int] = []
        originals.forEach { _, position in
            positions.append(position)
            return position != 5
        }
        #expect(positions == [3, 5])
        #expect(!originals.isEmpty && originals.slot(at: 1) == nil)
    }
}
