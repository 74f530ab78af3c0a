import Dispatch
import Testing
@testable import Katana
import KatanaTestSupport

/// `AnySideEffectContext.beginOutsideWork()`: an interceptor's work on a queue of its own keeps
/// the store from counting as idle until it ends.
@Suite struct OutsideWorkTests {
    /// An interceptor that, after each `Increment`, dispatches a recording updater from a queue of
    /// its own once `release` opens, telling the store about that work.
    private static func reactingLater(queue: DispatchQueue, release: Latch, events: LockedList<String>) -> StoreInterceptor {
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
        let events = LockedList<String>()
        let release = Latch()
        let store = makeStore(interceptors: [Self.reactingLater(queue: DispatchQueue(label: "outside"), release: release, events: events)])
        try await store.dispatch(Increment()).value
        // The reaction is under way: the store is not idle.
        #expect(!store.workSnapshot.isIdle)
        let shutdown = Task { await store.shutdown(.finishWork, deadline: .seconds(600)) }
        try await store.shutdownHasBegun()
        release.open()
        let report = try await withTimeout("the shutdown") { await shutdown.value }
        #expect(events.all == ["reaction"])
        #expect(report.handled == 1)
        #expect(report.cancelled == 0)
    }

    @Test func aToken_endsOnce_andWhenReleased() {
        let ended = LockedValue(0)
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
