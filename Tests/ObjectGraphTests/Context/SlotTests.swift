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
        #expect(MemoryLayout<PendingRow>.size == 8)
    }
}
