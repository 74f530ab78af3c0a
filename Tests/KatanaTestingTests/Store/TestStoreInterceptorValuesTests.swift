import Foundation
import Katana
import KatanaObservers
import KatanaTesting
import Testing

/// Blocks every `Add` whose amount is over 100; passes the rest on.
private struct CappingAdds: Interceptor {
    func intercept(_ item: any Dispatchable, next: InterceptorNext) throws {
        if let add = item as? Add, add.amount > 100 { return }
        try next(item)
    }
}

/// A test store built from the app's interceptors in the value form (`Interceptors { ... }`):
/// what the values and the rules do is recorded and asserted as with closure interceptors.
@Suite struct TestStoreInterceptorValuesTests {
    private func makeStore(recorder: TestFailureRecorder, _ interceptors: Interceptors) -> CountingTestStore {
        let clock = TestClock(reporter: recorder.reporter)
        return CountingTestStore(initialState: Counting(), interceptors: interceptors, clock: clock, reporter: recorder.reporter) { dependencies in
            dependencies.clock = clock
        }
    }

    @Test func observerRulesValue_itsDispatchIsReceived() async {
        let recorder = TestFailureRecorder()
        let store = makeStore(recorder: recorder, Interceptors {
            ObserverInterceptor.rules(notificationCenter: NotificationCenter()) {
                OnChange(of: \Counting.counter) { old, new in Note(text: "\(old)->\(new)") }
            }
        })
        await store.send(Add(amount: 2)) { $0.counter = 2 }
        await store.receive(Note.self) { $0.log = ["0->2"] }
        await store.finish()
        #expect(recorder.failures == [])
    }

    @Test func interceptorValueBlockingAnItem_isReportedAsNotHandled_andTheStateStaysAsItWas() async {
        let recorder = TestFailureRecorder()
        let store = makeStore(recorder: recorder, Interceptors {
            CappingAdds()
            CountingRules.notingCounterChanges()
        })
        await store.send(Add(amount: 500))
        await store.send(Add(amount: 3)) { $0.counter = 3 }
        await store.receive(Note.self) { $0.log = ["0->3"] }
        await store.finish()
        // The test store tells a blocked send apart, whichever form blocked it.
        #expect(recorder.messages == [
            "KatanaTestingTests.Add was sent, but an interceptor returned without passing it on, so the store did not handle it.",
        ])
        let outcomes = store.handledItems.map { item -> String in
            switch item.outcome {
            case .blocked: "blocked"
            case .handled: "handled"
            case .inProgress: "in progress"
            case .rejected(let error): "rejected: \(error)"
            }
        }
        #expect(outcomes == ["blocked", "handled", "handled"])
    }
}
