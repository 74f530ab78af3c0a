import Katana
import KatanaTestSupport
import Testing

/// Dispatches an updater and blocks on it.
private struct InnerBlockingSideEffect: SideEffect {
    let id: Int
    func sideEffect(_ context: SideEffectContext<LoadState, LoadDependencies>) throws {
        try context.dispatch(Add(id: id, amount: 1)).wait(timeout: reliabilityTimeout)
    }
}

/// Dispatches an ``InnerBlockingSideEffect`` and blocks on it.
private struct OuterBlockingSideEffect: SideEffect {
    let id: Int
    func sideEffect(_ context: SideEffectContext<LoadState, LoadDependencies>) throws {
        try context.dispatch(InnerBlockingSideEffect(id: id)).wait(timeout: reliabilityTimeout)
    }
}

extension ReliabilityStorms {
    /// Item 7: side effects that block on side effects that block on updaters (`wait(timeout:)`, the
    /// `Hydra.await` replacement) never starve each other of a thread, however many block at once.
    @Suite struct BlockingWaitStarvationTests {
        /// 256 (each holding a thread while it waits: up to 512 threads); under the thread sanitizer,
        /// where each thread costs many times more and the other tests share the machine, 64.
        static var outerCount: Int { isRunningUnderThreadSanitizer ? 64 : 256 }

        // Async, so the test itself does not hold a thread of the cooperative pool while it waits.
        @Test func sideEffectsBlockingOnNestedSideEffects_256AtOnce_allCompleteAndApplyTheirUpdaters() async throws {
            let store = LoadStore()
            let outers = (0 ..< Self.outerCount).map { store.dispatch(OuterBlockingSideEffect(id: $0)) }
            try await store.waitUntil("every outer side effect to settle", timeout: reliabilityTimeout) { outers.allSatisfy { !$0.isPending } }
            for promise in outers {
                await #expect(throws: Never.self) { try await promise.value }
            }
            #expect(store.state.seq == Self.outerCount)
        }
    }
}
