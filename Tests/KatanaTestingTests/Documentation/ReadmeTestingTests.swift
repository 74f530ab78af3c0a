import Katana
import KatanaTesting
import KatanaTestSupport
import Testing

/// docs/Testing.md, compiled and run as written, with the types of docs/StoreAndThreading.md's
/// "Using the store" (KatanaTestSupport's `UsingTheStore`, which KatanaTests runs the article with).
enum ReadmeTesting {
    typealias CounterState = UsingTheStore.CounterState
    typealias Increment = UsingTheStore.Increment

    final class TimedDependencies: SideEffectDependencyContainer, @unchecked Sendable {
        // @unchecked: `clock` is set once, by the test's prepareDependencies, before the store starts.
        var clock: any Clock<Duration> = ContinuousClock()
        init(dispatch: @escaping AnyDispatch, getState: @escaping GetState) {}
    }

    struct IncrementLater: AsyncSideEffect {
        func sideEffect(_ context: SideEffectContext<CounterState, TimedDependencies>) async throws {
            try await context.dependencies.clock.sleep(for: .seconds(5))
            try await context.dispatch(Increment()).value
        }
    }
}

@Suite struct ReadmeTestingTests {
    typealias CounterState = UsingTheStore.CounterState
    typealias Increment = UsingTheStore.Increment
    typealias AppDependencies = UsingTheStore.AppDependencies
    typealias LoadAmount = UsingTheStore.LoadAmount
    typealias TimedDependencies = ReadmeTesting.TimedDependencies
    typealias IncrementLater = ReadmeTesting.IncrementLater

    // As written in docs/Testing.md: a failing step fails this test through Swift Testing.
    @Test func counting() async {
        let store = TestStore<CounterState, AppDependencies>(initialState: CounterState())
        await store.send(Increment()) { $0.counter = 1 }
        // A side effect: the store settles once its body has returned or suspended, so the state
        // already holds what it dispatched and awaited; the updater it dispatched is then received.
        await store.send(LoadAmount()) { $0.counter = 42 }
        await store.receive(Increment.self) { $0.counter = 42 }
        await store.finish()
    }

    @Test func incrementingLater() async {
        let clock = TestClock()
        let store = TestStore<CounterState, TimedDependencies>(initialState: CounterState(), clock: clock) {
            $0.clock = clock                               // dependencies swapped for this test
        }
        await store.send(IncrementLater())
        await store.advance(by: .seconds(5))               // no real waiting
        await store.receive(Increment.self) { $0.counter = 1 }
        await store.finish()
        #expect(clock.now == TestClock.Instant(offset: .seconds(5)))
    }

    @Test func aFailingStep_printsTheDiff() async {
        let recorder = TestFailureRecorder()
        let store = TestStore<CounterState, AppDependencies>(initialState: CounterState(), reporter: recorder.reporter)
        await store.send(Increment(amount: 2)) { $0.counter = 3 }
        await store.finish()
        // docs/Testing.md shows the message as it reads in a test module called MyAppTests.
        let shown = recorder.messages.map { $0.replacingOccurrences(of: "KatanaTestSupport.UsingTheStore.", with: "MyAppTests.") }
        #expect(shown == [
            """
            State after sending MyAppTests.Increment differs from the expectation (− expected, + actual):
              CounterState(
            −   counter: 3
            +   counter: 2
              )
            """,
        ])
    }
}
