import Dispatch
import Foundation
import Testing
@testable import Katana
import KatanaTestSupport

/// An interceptor object that only the outermost interceptor closure holds strongly: the closures
/// the store keeps for each item reach it only weakly, so it lives exactly as long as the store
/// keeps the interceptor it was given.
private final class Spy: Sendable {
    let seen: LockedList<String>

    init(recordingInto seen: LockedList<String>) {
        self.seen = seen
    }

    func interceptor() -> StoreInterceptor {
        { context in
            // The only strong reference to the spy is this outermost closure's capture of `self`.
            let weakSpy = WeakSpy(self)
            return { next in
                { item in
                    weakSpy.spy?.seen.append(String(describing: type(of: item)))
                    try next(item)
                }
            }
        }
    }
}

/// A weak reference to a spy, for closures that must not keep it alive.
private final class WeakSpy: Sendable {
    weak let spy: Spy?

    init(_ spy: Spy) {
        self.spy = spy
    }
}

/// Store semantics 4: the store keeps every interceptor it was given (and what its closures
/// capture) alive until the store is released, and no longer.
@Suite struct InterceptorLifetimeTests {
    @Test func interceptorObjectCapturedOnlyByOuterClosure_stillSeesItems100msAfterStartUp() async throws {
        let seen = LockedList<String>()
        let store = makeStore(interceptors: [Spy(recordingInto: seen).interceptor()])
        try await Task.sleep(for: .milliseconds(100))  // a delay, not a synchronisation: give a store that lets go early time to do so
        try await store.dispatch(Increment(amount: 2)).settled()
        #expect(seen.all == ["Increment"])
        #expect(store.state.counter == 2)
    }

    @Test func interceptorObject_isFreedWhenStoreIsReleased() async throws {
        let seen = LockedList<String>()
        let spyReference: WeakSpy
        do {
            let spy = Spy(recordingInto: seen)
            spyReference = WeakSpy(spy)
            let store = makeStore(interceptors: [spy.interceptor()])
            try await store.dispatch(Increment()).settled()
            #expect(store.state.counter == 1)
        }
        // The store may let go of its interceptors asynchronously.
        try await poll("the interceptor to be released") { spyReference.spy == nil }
    }
}
