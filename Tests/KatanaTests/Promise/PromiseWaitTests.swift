import Dispatch
import Testing
@testable import Katana
import KatanaTestSupport

/// Records what `wait(timeout:)` throws when called where it runs.
private struct WaitInsideUpdater: StateUpdater {
    let outcome: LockedList<String>
    let pending: Promise<Int>
    func updateState(_ state: inout CounterState) {
        outcome.append(describeWait(on: pending))
        outcome.append(describeWait(on: Promise(resolved: 5)))
        state.counter += 1
    }
}

private func describeWait(on promise: Promise<Int>) -> String {
    do {
        return "value \(try promise.wait(timeout: .seconds(2)))"
    } catch let error as KatanaError {
        switch error {
        case .waitOnStoreQueue: return "waitOnStoreQueue"
        case .waitTimedOut: return "waitTimedOut"
        default: return "\(error)"
        }
    } catch {
        return "\(error)"
    }
}

@Suite struct PromiseWaitTests {
    // `wait` blocks its thread: the waits these tests are about run on a thread of their own.

    @Test func wait_returnsValueSettledLaterOnAnotherThread() async throws {
        let source = Controlled<String>()
        DispatchQueue.global().async { source.resolve("later") }
        #expect(try await onThreadOfItsOwn("wait") { try source.promise.wait(timeout: .seconds(10)) } == "later")
    }

    @Test func wait_throwsTheRejection() async throws {
        let source = Controlled<Int>()
        DispatchQueue.global().async { source.reject(TestError(code: 13)) }
        await #expect(throws: TestError(code: 13)) {
            try await onThreadOfItsOwn("wait") { try source.promise.wait(timeout: .seconds(10)) }
        }
    }

    @Test func wait_onNeverSettlingPromise_throwsWaitTimedOut() async throws {
        let never = Controlled<Int>()
        await #expect(throws: KatanaError.waitTimedOut(after: .milliseconds(50))) {
            try await onThreadOfItsOwn("wait") { try never.promise.wait(timeout: .milliseconds(50)) }
        }
        #expect(never.promise.isPending)
    }

    @Test func wait_withZeroTimeout_onPendingPromise_throwsWaitTimedOut() {
        let never = Controlled<Int>()
        #expect(throws: KatanaError.waitTimedOut(after: .zero)) {
            try never.promise.wait(timeout: .zero)
        }
    }

    @Test func waitInsideStateUpdater_throwsWaitOnStoreQueue() async throws {
        let store = makeStore()
        let outcome = LockedList<String>()
        let never = Controlled<Int>()
        try await store.dispatch(WaitInsideUpdater(outcome: outcome, pending: never.promise)).settled()
        // A pending promise would deadlock; an already settled one just gives its value.
        #expect(outcome.all == ["waitOnStoreQueue", "value 5"])
        #expect(store.state.counter == 1)
    }

    @Test func waitInsideInterceptor_throwsWaitOnStoreQueue() async throws {
        let outcome = LockedList<String>()
        let never = Controlled<Int>()
        let waiting = interceptor { item, next in
            outcome.append(describeWait(on: never.promise))
            try next(item)
        }
        let store = makeStore(interceptors: [waiting])
        try await store.dispatch(Increment(amount: 2)).settled()
        #expect(outcome.all == ["waitOnStoreQueue"])
        #expect(store.state.counter == 2)
    }

    /// Interceptors are initialised on the store's queue before it is ready, so waiting there on a
    /// dispatch can never succeed: it must be reported, not sit out the timeout.
    @Test func waitInsideInterceptorInitialisation_throwsWaitOnStoreQueue() async throws {
        let outcome = LockedList<String>()
        let waitingAtStart = interceptor(onStart: { context in
            do {
                try context.dispatch(Increment(amount: 1)).wait(timeout: .seconds(1))
                outcome.append("value")
            } catch let error as KatanaError {
                if case .waitOnStoreQueue = error { outcome.append("waitOnStoreQueue") } else { outcome.append("\(error)") }
            } catch {
                outcome.append("\(error)")
            }
        }) { item, next in try next(item) }
        let store = makeStore(interceptors: [waitingAtStart])
        #expect(outcome.all == ["waitOnStoreQueue"])
        try await store.dispatch(NoChange()).settled()
        #expect(store.state.applied == [1])
    }

    @Test func waitInsideImmediateListener_throwsWaitOnStoreQueue() async throws {
        let store = makeStore(configuration: testConfiguration(listeners: ImmediateExecutor()))
        let outcome = LockedList<String>()
        let never = Controlled<Int>()
        store.addListener { _, _ in outcome.append(describeWait(on: never.promise)) }
        try await store.dispatch(Increment()).settled()
        try await outcome.waitForCount(1)
        #expect(outcome.all == ["waitOnStoreQueue"])
    }

    @Test func waitInsideSideEffect_isAllowed() async throws {
        let store = makeStore()
        try await store.dispatch(IncrementLater(amount: 6)).settled()
        #expect(store.state.counter == 6)
    }

    @Test func value_returnsTheFulfilledValue() async throws {
        let source = Controlled<Int>()
        DispatchQueue.global().async { source.resolve(99) }
        #expect(try await withTimeout("the value") { try await source.promise.value } == 99)
        #expect(try await withTimeout("the value") { try await Promise(resolved: 1).value } == 1)
    }

    @Test func value_throwsTheRejection() async throws {
        let source = Controlled<Int>()
        DispatchQueue.global().async { source.reject(TestError(code: 98)) }
        await #expect(throws: TestError(code: 98)) {
            try await withTimeout("the value") { try await source.promise.value }
        }
    }
}
