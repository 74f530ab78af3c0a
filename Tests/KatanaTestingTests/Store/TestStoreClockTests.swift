import Katana
import KatanaTesting
import Testing

/// Time through the test store: `advance(by:)` wakes each sleep due on the way (nested ones
/// included), nothing earlier; a negative advance is refused; a debounce runs in virtual time.
@Suite(.enabled(if: clockExecutorIsAvailable)) struct TestStoreClockTests {
    @Test func advance_stepByStep_wakesEachNestedSleepAtItsDeadline() async {
        let (store, recorder) = await finishedTestStore { store in
            await store.send(RetryWithBackoff())
            await store.advance(by: .seconds(1))
            await store.receiveAttempt(1)
            await store.advance(by: .milliseconds(1999))
            #expect(store.handledItems.count == 2)
            await store.advance(by: .milliseconds(1))
            await store.receiveAttempt(2)
            await store.advance(by: .seconds(4))
            await store.receiveAttempt(3)
        }
        #expect(recorder.failures == [])
        #expect(store.clock.now == TestClock.Instant(offset: .seconds(7)))
    }

    @Test func advance_pastEveryDeadlineAtOnce_wakesNestedSleepsInOrder() async {
        let (store, recorder) = await finishedTestStore { store in
            await store.send(RetryWithBackoff())
            await store.advance(by: .seconds(60))
            for attempt in 1...3 {
                await store.receiveAttempt(attempt)
            }
        }
        #expect(recorder.failures == [])
        #expect(store.clock.now == TestClock.Instant(offset: .seconds(60)))
    }

    @Test func advance_lessThanTheSleep_wakesNothing() async {
        let (_, recorder) = await finishedTestStore { store in
            await store.send(LoadAmount())
            await store.advance(by: .milliseconds(999))
            #expect(store.handledItems.count == 1)
            #expect(store.clock.sleepers.map(\.deadline) == [TestClock.Instant(offset: .seconds(1))])
            #expect(store.state == Counting())
            await store.advance(by: .milliseconds(1))
            await store.receive(Add.self) { $0.counter = 41 }
        }
        #expect(recorder.failures == [])
    }

    @Test func advance_byANegativeDuration_failsAtTheCallersLine_andDoesNotMoveTheClock() async {
        let line: UInt = #line + 3
        let (store, recorder) = await finishedTestStore { store in
            await store.advance(by: .seconds(2))
            await store.advance(by: .seconds(-1))
        }
        #expect(recorder.failures.map { "\($0.location.line): \($0.message)" } == [
            "\(line): advance(by: -1.0 seconds): the duration is negative, and a test clock only moves forward.",
        ])
        #expect(store.clock.now == TestClock.Instant(offset: .seconds(2)))
    }

    @Test func advance_byZero_onlySettles() async {
        let (_, recorder) = await finishedTestStore { store in
            await store.send(LoadAmount())
            await store.advance(by: .zero)
            #expect(store.handledItems.count == 1)
            #expect(store.clock.now == TestClock.Instant(offset: .zero))
            await store.advance(by: .seconds(1))
            await store.receive(Add.self) { $0.counter = 41 }
        }
        #expect(recorder.failures == [])
    }

    @Test func aDebouncedSearch_onlyTheLatestOfABurstDispatches() async {
        let (store, recorder) = await finishedTestStore { store in
            await store.send(DebouncedSearch(query: "a"))
            await store.advance(by: .milliseconds(100))
            await store.send(DebouncedSearch(query: "ab"))
            await store.advance(by: .milliseconds(299))
            await store.send(DebouncedSearch(query: "abc"))
            // The first two were cancelled before their 300 ms were up: only one sleeper is left.
            #expect(store.clock.sleepers.map(\.deadline) == [TestClock.Instant(offset: .milliseconds(699))])
            await store.advance(by: .milliseconds(299))
            #expect(store.handledItems.count == 3)
            await store.advance(by: .milliseconds(1))
            await store.receive(Note.self) { $0.log = ["search abc"] }
        }
        #expect(recorder.failures == [])
        #expect(store.state.log == ["search abc"])
    }
}
