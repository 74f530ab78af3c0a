import Dispatch
import Foundation
@testable import Katana

/// The state most tests use: a counter and a log of applied values, in order.
struct CounterState: State, Equatable {
    var counter = 0
    var applied: [Int] = []
}

/// Another state type, to provoke type mismatches.
struct OtherState: State, Equatable {
    var text = ""
}

final class TestDependencies: SideEffectDependencyContainer {
    let label: String
    init(dispatch: @escaping AnyDispatch, getState: @escaping GetState) {
        label = "test dependencies"
    }
}

typealias TestStore = Store<CounterState, TestDependencies>

/// Adds `amount` to the counter and records it.
struct Increment: StateUpdater {
    var amount = 1
    func updateState(_ state: inout CounterState) {
        state.counter += amount
        state.applied.append(amount)
    }
}

/// An updater for another state type.
struct SetText: StateUpdater {
    let text: String
    func updateState(_ state: inout OtherState) {
        state.text = text
    }
}

/// A type-erased updater that returns a state of the wrong type.
struct ReturnsWrongState: AnyStateUpdater {
    func updatedState(currentState: any State) -> any State {
        OtherState(text: "wrong")
    }
}

/// A type-erased updater that behaves.
struct ErasedDouble: AnyStateUpdater {
    func updatedState(currentState: any State) -> any State {
        guard var state = currentState as? CounterState else { return currentState }
        state.counter *= 2
        return state
    }
}

struct NotHandleable: Dispatchable {}

struct BothKinds: AnyStateUpdater, AnySideEffect {
    func updatedState(currentState: any State) -> any State { currentState }
    func anySideEffect(_ context: any AnySideEffectContext) throws -> any Sendable { () }
}

struct TestError: Error, Equatable {
    let code: Int
}

/// A side effect that dispatches `Increment(amount:)` and waits for it.
struct IncrementLater: SideEffect {
    let amount: Int
    func sideEffect(_ context: SideEffectContext<CounterState, TestDependencies>) throws {
        try context.dispatch(Increment(amount: amount)).wait(timeout: .seconds(10))
    }
}

struct Fails: SideEffect {
    let code: Int
    func sideEffect(_ context: SideEffectContext<CounterState, TestDependencies>) throws {
        throw TestError(code: code)
    }
}

/// A side effect for another store type.
struct WrongContextSideEffect: SideEffect {
    func sideEffect(_ context: SideEffectContext<OtherState, EmptySideEffectDependencyContainer>) throws {}
}

struct ReadCounter: ReturningSideEffect {
    func sideEffect(_ context: any AnySideEffectContext) throws -> Int {
        guard let context = context as? SideEffectContext<CounterState, TestDependencies> else {
            throw TestError(code: -1)
        }
        return context.getState().counter
    }
}

struct AsyncAdd: AsyncSideEffect {
    let amount: Int
    func sideEffect(_ context: SideEffectContext<CounterState, TestDependencies>) async throws -> Int {
        try await context.dispatch(Increment(amount: amount)).value
        return context.getState().counter
    }
}

/// A thread-safe recorder for values produced on other threads.
final class Recorder<Value: Sendable>: @unchecked Sendable {
    // @unchecked: `values` is only touched under `lock`.
    private let lock = NSLock()
    private var storage: [Value] = []

    func append(_ value: Value) {
        lock.lock()
        storage.append(value)
        lock.unlock()
    }

    var values: [Value] {
        lock.lock()
        defer { lock.unlock() }
        return storage
    }
}

/// How long the helpers below wait by default: 10 s, or 60 s under the thread sanitizer, where
/// every thread hop costs many times more and the cooperative pool's two threads (on this 2-core
/// machine) are shared with every test running in parallel. Waits stay bounded either way.
let defaultTestTimeout: Duration = dlsym(nil, "__tsan_init") != nil ? .seconds(60) : .seconds(10)

/// Polls `condition` until it holds or `timeout` passes; returns whether it held.
func eventually(timeout: Duration = defaultTestTimeout, _ condition: @Sendable () -> Bool) -> Bool {
    let deadline = ContinuousClock.now + timeout
    while ContinuousClock.now < deadline {
        if condition() { return true }
        usleep(1_000)
    }
    return condition()
}

/// A listener queue every test can drain on Linux and macOS alike (the Apple default is the main queue).
func testConfiguration(
    listeners: any Executor = DispatchQueue(label: "test.listeners"),
    stateInitializer: any Executor = ImmediateExecutor(),
    signpostLogger: SignpostLogger? = nil
) -> TestStore.Configuration {
    .init(stateInitializerAsyncProvider: stateInitializer, listenersAsyncProvider: listeners, signpostLogger: signpostLogger)
}

func makeStore(
    interceptors: [StoreInterceptor] = [],
    initial: CounterState = CounterState(),
    configuration: TestStore.Configuration = testConfiguration()
) -> TestStore {
    TestStore(interceptors: interceptors, stateInitializer: { initial }, configuration: configuration)
}

extension Error {
    var katana: KatanaError? { self as? KatanaError }
}

// MARK: - Synchronisation helpers (every wait has a timeout)

extension Duration {
    /// The duration in seconds, for Foundation APIs.
    var timeInterval: TimeInterval {
        let (seconds, attoseconds) = components
        return Double(seconds) + Double(attoseconds) / 1e18
    }
}

/// A thread-safe counter.
final class Counter: @unchecked Sendable {
    // @unchecked: `count` is only touched under `lock`.
    private let lock = NSLock()
    private var count = 0

    @discardableResult
    func increment() -> Int {
        lock.lock()
        defer { lock.unlock() }
        count += 1
        return count
    }

    @discardableResult
    func decrement() -> Int {
        lock.lock()
        defer { lock.unlock() }
        count -= 1
        return count
    }

    var value: Int {
        lock.lock()
        defer { lock.unlock() }
        return count
    }
}

/// A gate that stays open once opened; waiting on it always has a timeout.
final class Latch: @unchecked Sendable {
    // @unchecked: `isOpen` is only touched while holding `condition`.
    private let condition = NSCondition()
    private var isOpen = false

    func open() {
        condition.lock()
        isOpen = true
        condition.broadcast()
        condition.unlock()
    }

    /// Waits until the latch is open or `timeout` passes; returns whether it opened.
    @discardableResult
    func wait(timeout: Duration = .seconds(10)) -> Bool {
        let deadline = Date().addingTimeInterval(timeout.timeInterval)
        condition.lock()
        defer { condition.unlock() }
        while !isOpen {
            if !condition.wait(until: deadline) { return isOpen }
        }
        return true
    }
}

/// An executor that keeps every block until the test runs them: the store's start-up is held.
final class HeldExecutor: Executor, @unchecked Sendable {
    // @unchecked: `blocks` is only touched under `lock`.
    private let lock = NSLock()
    private var blocks: [@Sendable () -> Void] = []

    func executeAsync(_ block: @escaping @Sendable () -> Void) {
        lock.lock()
        blocks.append(block)
        lock.unlock()
    }

    func executeSync<T>(_ block: () throws -> T) rethrows -> T {
        try block()
    }

    var heldCount: Int {
        lock.lock()
        defer { lock.unlock() }
        return blocks.count
    }

    /// Runs (on the calling thread) and forgets every held block.
    func runHeld() {
        lock.lock()
        let taken = blocks
        blocks = []
        lock.unlock()
        for block in taken { block() }
    }
}

struct TimedOut: Error, Equatable {
    let after: Duration
}

/// Runs `operation`, failing with `TimedOut` if it has not finished after `timeout`. Does not wait
/// for an operation that ignores cancellation (such as awaiting a promise) once the time is up.
func withTimeout<T: Sendable>(
    _ timeout: Duration = defaultTestTimeout,
    _ operation: @escaping @Sendable () async throws -> T
) async throws -> T {
    let claimed = Counter()
    return try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, any Error>) in
        let timer = Task {
            try await Task.sleep(for: timeout)
            if claimed.increment() == 1 {
                continuation.resume(throwing: TimedOut(after: timeout))
            }
        }
        Task {
            do {
                let value = try await operation()
                if claimed.increment() == 1 {
                    timer.cancel()
                    continuation.resume(returning: value)
                }
            } catch {
                if claimed.increment() == 1 {
                    timer.cancel()
                    continuation.resume(throwing: error)
                }
            }
        }
    }
}

/// Polls `condition` without blocking a thread until it holds or `timeout` passes.
func eventuallyAsync(timeout: Duration = defaultTestTimeout, _ condition: @Sendable () -> Bool) async -> Bool {
    let deadline = ContinuousClock.now + timeout
    while ContinuousClock.now < deadline {
        if condition() { return true }
        try? await Task.sleep(for: .milliseconds(2))
    }
    return condition()
}

/// Waits for `promise` and returns its error, or nil if it was fulfilled.
func rejection<T>(of promise: Promise<T>, timeout: Duration = .seconds(10)) -> (any Error)? {
    do {
        try promise.wait(timeout: timeout)
        return nil
    } catch {
        return error
    }
}

/// One `(old, new)` state change, reduced to the counters, so changes compare with `==`.
struct Change: Equatable, Sendable, CustomStringConvertible {
    let old: Int
    let new: Int
    init(_ old: Int, _ new: Int) {
        self.old = old
        self.new = new
    }
    var description: String { "\(old)→\(new)" }
}

// MARK: - More dispatchables

/// An updater that changes nothing.
struct NoChange: StateUpdater {
    func updateState(_ state: inout CounterState) {}
}

/// An updater that records `label` when it is applied.
struct RecordApplied: StateUpdater {
    let label: String
    let events: Recorder<String>
    func updateState(_ state: inout CounterState) {
        events.append(label)
    }
}

/// An updater that holds the updater queue until `release` opens (or the timeout passes).
struct BlockingUpdater: StateUpdater {
    let started: Latch
    let release: Latch
    func updateState(_ state: inout CounterState) {
        started.open()
        release.wait(timeout: .seconds(20))
        state.counter += 1000
    }
}

/// A side effect that signals it started, then blocks until `release` opens.
struct BlockingSideEffect: SideEffect {
    let started: Latch
    let release: Latch
    func sideEffect(_ context: SideEffectContext<CounterState, TestDependencies>) throws {
        started.open()
        guard release.wait(timeout: .seconds(20)) else { throw TimedOut(after: .seconds(20)) }
    }
}

/// A returning side effect that produces a fixed value.
struct Constant: ReturningSideEffect {
    let value: Int
    func sideEffect(_ context: any AnySideEffectContext) throws -> Int {
        value
    }
}

/// A side effect that fails (with the attempt number as code) until its `succeedOn`-th run.
struct Flaky: ReturningSideEffect {
    let attempts: Counter
    let succeedOn: Int
    func sideEffect(_ context: any AnySideEffectContext) throws -> Int {
        let attempt = attempts.increment()
        guard attempt >= succeedOn else { throw TestError(code: attempt) }
        return attempt
    }
}

/// An async side effect that throws.
struct AsyncFails: AsyncSideEffect {
    let code: Int
    func sideEffect(_ context: SideEffectContext<CounterState, TestDependencies>) async throws {
        throw TestError(code: code)
    }
}

/// An async side effect for another store type.
struct WrongContextAsyncSideEffect: AsyncSideEffect {
    func sideEffect(_ context: SideEffectContext<OtherState, EmptySideEffectDependencyContainer>) async throws -> Int {
        1
    }
}

/// Dependencies that keep the dispatch closure the store gives them.
final class KeepingDependencies: SideEffectDependencyContainer {
    let dispatch: AnyDispatch
    let getState: GetState
    init(dispatch: @escaping AnyDispatch, getState: @escaping GetState) {
        self.dispatch = dispatch
        self.getState = getState
    }
}

/// An interceptor built from a closure that gets each item and the next step.
func interceptor(
    onStart: @escaping @Sendable (any AnySideEffectContext) -> Void = { _ in },
    _ body: @escaping @Sendable (any Dispatchable, @escaping StoreInterceptorNext) throws -> Void
) -> StoreInterceptor {
    { context in
        onStart(context)
        return { next in
            { item in try body(item, next) }
        }
    }
}
