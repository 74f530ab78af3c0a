import Dispatch
import Testing
@testable import Katana

/// Records what `wait(timeout:)` throws when called where it runs.
private struct WaitInsideUpdater: StateUpdater {
    let outcome: Recorder<String>
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
    @Test func wait_returnsValueSettledLaterOnAnotherThread() throws {
        let source = Controlled<String>()
        DispatchQueue.global().async { source.resolve("later") }
        #expect(try source.promise.wait(timeout: .seconds(10)) == "later")
    }

    @Test func wait_throwsTheRejection() {
        let source = Controlled<Int>()
        DispatchQueue.global().async { source.reject(TestError(code: 13)) }
        #expect(throws: TestError(code: 13)) {
            try source.promise.wait(timeout: .seconds(10))
        }
    }

    @Test func wait_onNeverSettlingPromise_throwsWaitTimedOut() {
        let never = Controlled<Int>()
        #expect(throws: KatanaError.waitTimedOut(after: .milliseconds(50))) {
            try never.promise.wait(timeout: .milliseconds(50))
        }
        #expect(never.promise.isPending)
    }

    @Test func wait_withZeroTimeout_onPendingPromise_throwsWaitTimedOut() {
        let never = Controlled<Int>()
        #expect(throws: KatanaError.waitTimedOut(after: .zero)) {
            try never.promise.wait(timeout: .zero)
        }
    }

    @Test func waitInsideStateUpdater_throwsWaitOnStoreQueue() throws {
        let store = makeStore()
        let outcome = Recorder<String>()
        let never = Controlled<Int>()
        try store.dispatch(WaitInsideUpdater(outcome: outcome, pending: never.promise)).wait(timeout: .seconds(10))
        // A pending promise would deadlock; an already settled one just gives its value.
        #expect(outcome.values == ["waitOnStoreQueue", "value 5"])
        #expect(store.state.counter == 1)
    }

    @Test func waitInsideInterceptor_throwsWaitOnStoreQueue() throws {
        let outcome = Recorder<String>()
        let never = Controlled<Int>()
        let waiting = interceptor { item, next in
            outcome.append(describeWait(on: never.promise))
            try next(item)
        }
        let store = makeStore(interceptors: [waiting])
        try store.dispatch(Increment(amount: 2)).wait(timeout: .seconds(10))
        #expect(outcome.values == ["waitOnStoreQueue"])
        #expect(store.state.counter == 2)
    }

    /// Interceptors are initialised on the store's queue before it is ready, so waiting there on a
    /// dispatch can never succeed: it must be reported, not sit out the timeout.
    @Test func waitInsideInterceptorInitialisation_throwsWaitOnStoreQueue() throws {
        let outcome = Recorder<String>()
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
        #expect(outcome.values == ["waitOnStoreQueue"])
        try store.dispatch(NoChange()).wait(timeout: .seconds(10))
        #expect(store.state.applied == [1])
    }

    @Test func waitInsideImmediateListener_throwsWaitOnStoreQueue() throws {
        let store = makeStore(configuration: testConfiguration(listeners: ImmediateExecutor()))
        let outcome = Recorder<String>()
        let never = Controlled<Int>()
        store.addListener { _, _ in outcome.append(describeWait(on: never.promise)) }
        try store.dispatch(Increment()).wait(timeout: .seconds(10))
        #expect(eventually { outcome.values.count == 1 })
        #expect(outcome.values == ["waitOnStoreQueue"])
    }

    @Test func waitInsideSideEffect_isAllowed() throws {
        let store = makeStore()
        try store.dispatch(IncrementLater(amount: 6)).wait(timeout: .seconds(10))
        #expect(store.state.counter == 6)
    }

    @Test func value_returnsTheFulfilledValue() async throws {
        let source = Controlled<Int>()
        DispatchQueue.global().async { source.resolve(99) }
        #expect(try await withTimeout { try await source.promise.value } == 99)
        #expect(try await withTimeout { try await Promise(resolved: 1).value } == 1)
    }

    @Test func value_throwsTheRejection() async {
        let source = Controlled<Int>()
        DispatchQueue.global().async { source.reject(TestError(code: 98)) }
        await #expect(throws: TestError(code: 98)) {
            try await withTimeout { try await source.promise.value }
        }
    }
}
