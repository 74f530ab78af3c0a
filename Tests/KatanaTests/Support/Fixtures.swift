import Dispatch
import Foundation
@testable import Katana
import KatanaTestSupport

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
        try context.dispatch(Increment(amount: amount)).wait(timeout: defaultTestTimeout)
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

// MARK: - Synchronisation fixtures (waits come from KatanaTestSupport)

extension Duration {
    /// The duration in seconds, for Foundation APIs.
    var timeInterval: TimeInterval {
        let (seconds, attoseconds) = components
        return Double(seconds) + Double(attoseconds) / 1e18
    }
}

extension LockedValue where Value == Int {
    /// Adds one to the count and returns the new count.
    @discardableResult
    func increment() -> Int {
        withLock { count in
            count += 1
            return count
        }
    }

    /// Takes one from the count and returns the new count.
    @discardableResult
    func decrement() -> Int {
        withLock { count in
            count -= 1
            return count
        }
    }
}

/// A gate that stays open once opened. Code on the store's own threads (an updater, a side
/// effect, a worker) blocks at it with ``wait(timeout:)``: holding that thread is what the
/// fixtures that use it are for. A test awaits it with ``opened(_:timeout:)``, suspended until
/// ``open()``, without blocking a thread.
final class Latch: @unchecked Sendable {
    // @unchecked: `isOpen` is only touched while holding `condition`.
    private let condition = NSCondition()
    private var isOpen = false
    /// One element once open: what ``opened(_:timeout:)`` waits on.
    private let openings = LockedList<Void>()

    func open() {
        condition.lock()
        isOpen = true
        condition.broadcast()
        condition.unlock()
        openings.append(())
    }

    /// Blocks the calling thread until the latch is open or `timeout` passes; returns whether it
    /// opened. For code that runs on the store's threads, never for a test's own body.
    @discardableResult
    func wait(timeout: Duration = holdTimeout) -> Bool {
        let deadline = Date().addingTimeInterval(timeout.timeInterval)
        condition.lock()
        defer { condition.unlock() }
        while !isOpen {
            if !condition.wait(until: deadline) { return isOpen }
        }
        return true
    }

    /// Suspends until the latch is open; throws ``TimedOut`` naming `what` after `timeout`.
    func opened(_ what: String = "the latch to open", timeout: Duration = defaultTestTimeout) async throws {
        try await openings.waitUntil(what, timeout: timeout) { !$0.isEmpty }
    }
}

/// An executor that keeps every block until the test runs them: the store's start-up is held.
final class HeldExecutor: Executor, Sendable {
    private let blocks = LockedValue<[@Sendable () -> Void]>([])

    func executeAsync(_ block: @escaping @Sendable () -> Void) {
        blocks.withLock { $0.append(block) }
    }

    func executeSync<T>(_ block: () throws -> T) rethrows -> T {
        try block()
    }

    var heldCount: Int {
        blocks.withLock { $0.count }
    }

    /// Runs (on the calling thread) and forgets every held block.
    func runHeld() {
        let taken = blocks.withLock { blocks in
            defer { blocks = [] }
            return blocks
        }
        for block in taken { block() }
    }
}

/// Suspends until `queue` has run every block queued on it before this call.
func drained(_ queue: DispatchQueue) async throws {
    try await withTimeout("the queue to run what it has") {
        await withCheckedContinuation { (ran: CheckedContinuation<Void, Never>) in queue.async { ran.resume() } }
    }
}

/// Awaits `promise` (no thread blocked) and returns its error, or nil if it was fulfilled; throws
/// ``TimedOut`` if it has not settled within `timeout`.
func rejection<T>(of promise: Promise<T>, timeout: Duration = defaultTestTimeout) async throws -> (any Error)? {
    try await withTimeout("the promise to settle", timeout: timeout) { () -> (any Error)? in
        do {
            _ = try await promise.value
            return nil
        } catch {
            return error
        }
    }
}

/// The error `promise` has already been rejected with, without waiting: nil if it was fulfilled
/// or is still pending. For what must be settled by the time the test looks.
func rejectionNow<T>(of promise: Promise<T>) -> (any Error)? {
    guard case .failure(let error)? = promise.outcome else { return nil }
    return error
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
    let events: LockedList<String>
    func updateState(_ state: inout CounterState) {
        events.append(label)
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
    let attempts: LockedValue<Int>
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

/// A task executor with a thread of its own, for async code that blocks on purpose (a documentation
/// snippet written for scripts, which waits with `wait(timeout:)`): run under
/// `withTaskExecutorPreference`, it runs there, never on a thread of Swift concurrency's shared
/// pool. Its thread ends at ``stop()``.
final class ThreadOfItsOwnExecutor: TaskExecutor, @unchecked Sendable {
    // @unchecked: `jobs` and `stopped` are only touched while holding `condition`.
    private let condition = NSCondition()
    private var jobs: [UnownedJob] = []
    private var stopped = false

    init() {
        Thread { [self] in runJobs() }.start()
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        condition.lock()
        jobs.append(job)
        condition.signal()
        condition.unlock()
    }

    /// Lets the thread end once it has run the jobs it has.
    func stop() {
        condition.lock()
        stopped = true
        condition.signal()
        condition.unlock()
    }

    private func runJobs() {
        while true {
            condition.lock()
            while jobs.isEmpty, !stopped {
                condition.wait()
            }
            guard !jobs.isEmpty else {
                condition.unlock()
                return
            }
            let job = jobs.removeFirst()
            condition.unlock()
            job.runSynchronously(on: asUnownedTaskExecutor())
        }
    }
}
