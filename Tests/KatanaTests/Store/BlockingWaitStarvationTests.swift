import Dispatch
import Foundation
import Testing
@testable import Katana

/// Dispatches an updater and blocks on it.
private struct InnerBlockingSideEffect: SideEffect {
    func sideEffect(_ context: SideEffectContext<CounterState, TestDependencies>) throws {
        try context.dispatch(Increment()).wait(timeout: .seconds(60))
    }
}

/// Dispatches an ``InnerBlockingSideEffect`` and blocks on it.
private struct OuterBlockingSideEffect: SideEffect {
    func sideEffect(_ context: SideEffectContext<CounterState, TestDependencies>) throws {
        try context.dispatch(InnerBlockingSideEffect()).wait(timeout: .seconds(60))
    }
}

/// Store semantics 3: side effects that block on further side effects never starve them of a
/// thread to run on, however many are blocked at once.
@Suite struct BlockingWaitStarvationTests {
    /// 256 (each holding a thread while it waits: 512 threads); under the thread sanitizer, where
    /// each thread costs many times more and the other tests share the machine, 64.
    static var outerCount: Int { isRunningUnderThreadSanitizer ? 64 : 256 }

    // Async, so that the test itself does not hold one of the few threads of the cooperative pool
    // while it waits (other tests running in parallel need them).
    @Test func sideEffectsBlockingOnNestedSideEffects_256AtOnce_allCompleteAndApplyTheirUpdaters() async throws {
        let store = makeStore()
        let outers = (0..<Self.outerCount).map { _ in store.dispatch(OuterBlockingSideEffect()) }
        let outcome: String
        do {
            _ = try await withTimeout(.seconds(120)) { try await Promise.all(outers).value }
            outcome = "all fulfilled"
        } catch {
            outcome = "\(error)"
        }
        #expect(outcome == "all fulfilled")
        #expect(store.state.counter == Self.outerCount)
    }
}
