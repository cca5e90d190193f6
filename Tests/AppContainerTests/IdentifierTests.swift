import AppContainer
import Foundation
import Testing

@Suite struct IdentifierTests {
    @Test(arguments: ["", ".", "..", "a/b", "/abs", "..\\x", "tab\there", "nul\u{0}", " lead"])
    func badIdentifiersAreRejected(identifier: String) throws {
        let error = #expect(throws: AppContainerError.self) {
            try AppContainer(identifier: identifier, environment: ["HOME": "/h"])
        }
        guard case .invalidIdentifier(let rejected, let reason) = error else {
            Issue.record("unexpected error \(String(describing: error))")
            return
        }
        #expect(rejected == identifier)
        #expect(!reason.isEmpty)
        #expect(error?.description.contains("invalid app identifier") == true)
    }

    @Test func rootedLayoutRejectsToo() {
        #expect(throws: AppContainerError.self) {
            try AppContainer(identifier: "..", root: URL(fileURLWithPath: "/tmp"))
        }
    }

    @Test func tooLongIsRejected() {
        let long = String(repeating: "a", count: AppContainer.maximumIdentifierLength + 1)
        #expect(throws: AppContainerError.self) { try AppContainer.validate(identifier: long) }
    }

    @Test func ordinaryIdentifiersAreAccepted() throws {
        for identifier in ["com.example.app", "my-tool", "Ünïcode.app", ".hidden", "a b"] {
            let container = try AppContainer(identifier: identifier, environment: ["HOME": "/h"])
            #expect(container.identifier == identifier)
        }
    }
}
