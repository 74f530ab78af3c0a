import Dispatch
import Testing
@testable import Katana

/// `AnySideEffectContext.beginOutsideWork()`: an interceptor's work on a queue of its own keeps
/// the store from counting as idle until it ends.
@Suite struct OutsideWorkTests {
    /// An interceptor that, after each `Increment`, dispatches `NoChange` from a queue of its own a
    /// little later, telling the store about it.
    private static func reactingLater(queue: DispatchQueue, delay: Duration, events: Recorder<String>) -> StoreInterceptor {
        { context in
            { next in
                { item in
                    try next(item)
                    guard item is Increment else { return }
                    let work = context.beginOutsideWork()
                    queue.asyncAfter(deadline: .now() + delay.timeInterval) {
                        context.anyDispatch(RecordApplied(label: "reaction", events: events))
                        work.end()
                    }
                }
            }
        }
    }

    @Test func aShutdownThatFinishesWork_waitsForOutsideWork_andHandlesWhatItDispatches() async throws {
        let events = Recorder<String>()
        let store = makeStore(interceptors: [Self.reactingLater(queue: DispatchQueue(label: "outside"), delay: .milliseconds(50), events: events)])
        try await store.dispatch(Increment()).value
        #expect(!store.workSnapshot.isIdle)
        let report = await store.shutdown(.finishWork, deadline: .seconds(60))
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
