import Katana
import KatanaTesting
import KatanaTestSupport

/// The state most test-store tests use.
struct Counting: State, Equatable {
    var counter = 0
    var log: [String] = []
}

/// Adds `amount`.
struct Add: StateUpdater {
    var amount = 1
    func updateState(_ state: inout Counting) {
        state.counter += amount
    }
}

/// Appends a line to the log.
struct Note: StateUpdater {
    let text: String
    func updateState(_ state: inout Counting) {
        state.log.append(text)
    }
}

/// Dependencies: a clock (the test's), and an amount a fake API returns.
final class CountingDependencies: SideEffectDependencyContainer, @unchecked Sendable {
    // @unchecked: the properties are set once, by the test's prepareDependencies, before the store
    // starts, and only read afterwards.
    var clock: any Clock<Duration> = ContinuousClock()
    var amount = 41
    init(dispatch: @escaping AnyDispatch, getState: @escaping GetState) {}
}

/// A synchronous side effect that dispatches `Add(amount)` and waits for it.
struct AddNow: SideEffect {
    let amount: Int
    func sideEffect(_ context: SideEffectContext<Counting, CountingDependencies>) throws {
        try context.dispatch(Add(amount: amount)).wait(timeout: defaultTestTimeout)
    }
}

/// An async side effect that sleeps on the dependencies' clock, then adds the fake API's amount.
struct LoadAmount: AsyncSideEffect {
    var delay: Duration = .seconds(1)
    func sideEffect(_ context: SideEffectContext<Counting, CountingDependencies>) async throws {
        try await context.dependencies.clock.sleep(for: delay)
        try await context.dispatch(Add(amount: context.dependencies.amount)).value
    }
}

/// Retries with backoff on the clock: notes each attempt at 1, 2 and 4 seconds apart.
struct RetryWithBackoff: AsyncSideEffect {
    func sideEffect(_ context: SideEffectContext<Counting, CountingDependencies>) async throws {
        for (attempt, delay) in [1, 2, 4].enumerated() {
            try await context.dependencies.clock.sleep(for: .seconds(delay))
            try await context.dispatch(Note(text: "attempt \(attempt + 1)")).value
        }
    }
}

typealias CountingTestStore = TestStore<Counting, CountingDependencies>

/// A test store whose failures go to `recorder`, with the dependencies' clock set to the store's.
func makeTestStore(
    recorder: TestFailureRecorder,
    exhaustivity: Exhaustivity = .on,
    interceptors: [StoreInterceptor] = [],
    amount: Int = 41
) -> CountingTestStore {
    let clock = TestClock(reporter: recorder.reporter)
    return CountingTestStore(
        initialState: Counting(),
        interceptors: interceptors,
        clock: clock,
        exhaustivity: exhaustivity,
        reporter: recorder.reporter
    ) { dependencies in
        dependencies.clock = clock
        dependencies.amount = amount
    }
}

extension TestStore where S == Counting, D == CountingDependencies {
    /// Receives the note of attempt `number` of ``RetryWithBackoff``: the log then holds every
    /// attempt so far.
    func receiveAttempt(_ number: Int, fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line) async {
        await receive(Note.self, assert: { $0.log = (1...number).map { "attempt \($0)" } }, fileID: fileID, filePath: filePath, line: line)
    }
}
