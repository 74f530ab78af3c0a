import Foundation
import Katana
import KatanaTestSupport
import Testing

/// The shared test support's waits: they return as soon as their condition holds, woken by what
/// changes it, and fail with a time-out that names what they waited for.
@Suite struct TestSupportTests {
    @Test func aListWaitReturnsOnTheAppendThatMakesItsConditionHold() async throws {
        let list = LockedList<Int>()
        let waiting = Task { try await list.waitForCount(3) }
        for value in 1 ... 3 {
            Thread { list.append(value) }.start()
        }
        let seen = try await waiting.value
        #expect(seen.count == 3 && Set(seen) == [1, 2, 3])
    }

    @Test func aListWaitWhoseConditionAlreadyHoldsReturnsAtOnce() async throws {
        let list = LockedList<String>()
        list.append("a")
        #expect(try await list.waitUntil { $0 == ["a"] } == ["a"])
    }

    @Test func aListWaitThatRunsOutThrowsTimedOutNamingWhatItWaitedFor() async throws {
        let list = LockedList<Int>()
        await #expect(throws: KatanaTestSupport.TimedOut(waitingFor: "a seven", after: .milliseconds(20))) {
            try await list.waitUntil("a seven", timeout: .milliseconds(20)) { $0.contains(7) }
        }
    }

    @Test func aCancelledListWaitEnds() async throws {
        let list = LockedList<Int>()
        let waiting = Task { try await list.waitForCount(1) }
        waiting.cancel()
        await #expect(throws: CancellationError.self) { try await waiting.value }
    }

    @Test func aStoreWaitWakesWhenTheStoreChanges() async throws {
        let store = Store<CounterState, TestDependencies>()
        for _ in 0 ..< 5 {
            store.dispatch(Increment())
        }
        try await store.waitUntil("five increments") { store.state.counter == 5 }
        try await store.waitUntilIdle()
        #expect(store.state.counter == 5)
    }

    @Test func aPollThatRunsOutNamesWhatItWaitedFor() async throws {
        await #expect(throws: KatanaTestSupport.TimedOut(waitingFor: "never", after: .milliseconds(30))) {
            try await poll("never", timeout: .milliseconds(30)) { false }
        }
        var calls = 0
        try await poll("the third look") {
            calls += 1
            return calls == 3
        }
        #expect(calls == 3)
    }

    @Test func aBlockingCallRunsOnAThreadOfItsOwn_andATimeOutDoesNotWaitForIt() async throws {
        let onMain = try await onThreadOfItsOwn("a thread") { Thread.isMainThread }
        #expect(!onMain)
        let gate = DispatchSemaphore(value: 0)
        await #expect(throws: KatanaTestSupport.TimedOut(waitingFor: "a stuck call", after: .milliseconds(50))) {
            try await onThreadOfItsOwn("a stuck call", timeout: .milliseconds(50)) { gate.wait() }
        }
        gate.signal()
    }
}
