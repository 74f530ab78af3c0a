import Dispatch
import Testing
@testable import Katana

/// `AnySideEffectContext.beginOutsideWork()`: an interceptor's work on a queue of its own keeps
/// the store from counting as idle until it ends.
@Suite struct OutsideWorkTests {
    /// An interceptor that, after each `Increment`, dispatches a recording updater from a queue of
    /// its own once `release` opens, telling the store about that work.
    private static func reactingLater(queue: DispatchQueue, release: Latch, events: Recorder<String>) -> StoreInterceptor {
        { context in
            { next in
                { item in
                    try next(item)
                    guard item is Increment else { return }
                    let work = context.beginOutsideWork()
                    queue.async {
                        release.wait(timeout: holdTimeout)
                        context.anyDispatch(RecordApplied(label: "reaction", events: events))
                        work.end()
                    }
                }
            }
        }
    }

    @Test func aShutdownThatFinishesWork_waitsForOutsideWork_andHandlesWhatItDispatches() async throws {
        let events = Recorder<String>()
        let release = Latch()
        let store = makeStore(interceptors: [Self.reactingLater(queue: DispatchQueue(label: "outside"), release: release, events: events)])
        try await store.dispatch(Increment()).value
        // The reaction is under way: the store is not idle.
        #expect(!store.workSnapshot.isIdle)
        let shutdown = Task { await store.shutdown(.finishWork, deadline: .seconds(600)) }
        #expect(await eventuallyAsync { store.isShuttingDown })
        release.open()
        let report = try await withTimeout { await shutdown.value }
        #expect(events.values == ["reaction"])
        #expect(report.handled == 1)
        #expect(report.cancelled == 0)
    }

    @Test func aToken_endsOnce_andWhenReleased() {
        let ended = Counter()
        let token = StoreWorkToken { ended.increment() }
        token.end()
        token.end()
        #expect(ended.value == 1)
        do {
            _ = StoreWorkToken { ended.increment() }
        }
        #expect(ended.value == 2)
    }
}
