import Dispatch
import Foundation
import Katana
import KatanaObservers

// Shared fixtures of the KatanaObservers tests: one state, a few updaters and side effects, a
// store factory, a polling wait with a deadline and a recording interceptor.
//
// Convention: everything a rule produces appends a string to `ObsState.log`, so a test asserts
// exactly which items were produced (and from which values) by reading the log.

/// The state the test stores hold.
struct ObsState: State, Equatable {
    var log: [String] = []
    var level = "info"
    var count = 0
    var nickname: String?
}

/// A state type no test store holds, for rules written for the wrong state.
struct ForeignState: State, Equatable {
    var value = 0
}

final class ObsDependencies: SideEffectDependencyContainer {
    init(dispatch: @escaping AnyDispatch, getState: @escaping GetState) {}
}

typealias ObsStore = Store<ObsState, ObsDependencies>

/// A store with the given interceptors, listeners on a private queue (never the main queue).
func makeStore(_ interceptors: [StoreInterceptor]) -> ObsStore {
    ObsStore(
        interceptors: interceptors,
        stateInitializer: { ObsState() },
        configuration: .init(listenersAsyncProvider: DispatchQueue(label: "KatanaObserversTests.listeners"))
    )
}

/// How long any single wait in these tests may take before the test fails.
let testTimeout: Duration = .seconds(10)

/// Polls `condition` until it holds or the deadline passes; returns whether it held.
func eventually(timeout: Duration = testTimeout, _ condition: () -> Bool) -> Bool {
    let deadline = ContinuousClock.now + timeout
    while !condition() {
        if ContinuousClock.now >= deadline {
            return condition()
        }
        usleep(1_000)
    }
    return true
}

extension ObsStore {
    /// The log entries that start with `prefix`, in order.
    func entries(_ prefix: String) -> [String] {
        state.log.filter { $0.hasPrefix(prefix) }
    }

    /// Dispatches `Append(entry)` and waits (with the test timeout) until it has been applied.
    func appendAndWait(_ entry: String) throws {
        try dispatch(Append(entry)).wait(timeout: testTimeout)
    }

    /// Waits until the log contains `entry`; returns whether it did before the deadline.
    func waitForEntry(_ entry: String) -> Bool {
        eventually { state.log.contains(entry) }
    }
}

// MARK: - Updaters and side effects

/// Appends a string to the log.
struct Append: StateUpdater {
    let entry: String
    init(_ entry: String) { self.entry = entry }
    func updateState(_ state: inout ObsState) { state.log.append(entry) }
}

/// Adds one to `count`.
struct Bump: StateUpdater {
    var tag = ""
    func updateState(_ state: inout ObsState) { state.count += 1 }
}

/// Adds one to `count`, but is another type than `Bump`.
struct OtherBump: StateUpdater {
    func updateState(_ state: inout ObsState) { state.count += 1 }
}

/// Sets `level`.
struct SetLevel: StateUpdater {
    let level: String
    init(_ level: String) { self.level = level }
    func updateState(_ state: inout ObsState) { state.level = level }
}

/// Sets `nickname`.
struct SetNickname: StateUpdater {
    let nickname: String?
    init(_ nickname: String?) { self.nickname = nickname }
    func updateState(_ state: inout ObsState) { state.nickname = nickname }
}

/// A class-based updater, to check that dispatch rules do not match subclasses.
class ClassBump: StateUpdater, @unchecked Sendable {
    // @unchecked: no stored properties.
    init() {}
    func updateState(_ state: inout ObsState) { state.count += 1 }
}

/// A subclass of `ClassBump`: the same updater, another dynamic type.
final class SubclassBump: ClassBump, @unchecked Sendable {}

/// A side effect that touches nothing.
struct DoNothing: SideEffect {
    func sideEffect(_ context: SideEffectContext<ObsState, ObsDependencies>) throws {}
}

/// A side effect that dispatches `Append(entry)` and waits for it to be applied.
struct AppendViaSideEffect: SideEffect {
    let entry: String
    func sideEffect(_ context: SideEffectContext<ObsState, ObsDependencies>) throws {
        try context.dispatch(Append(entry)).wait(timeout: testTimeout)
    }
}

// MARK: - Recording

/// A value behind a lock, for data shared between the test and the store's threads.
final class Shared<Value>: @unchecked Sendable {
    // @unchecked: `value` is only touched while holding `lock`.
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) { self.value = value }

    func get() -> Value { lock.withLock { value } }

    func mutate<R>(_ body: (inout Value) -> R) -> R { lock.withLock { body(&value) } }
}

/// An interceptor that records a label for every item that passes through it, then passes it on.
final class RecordingInterceptor: Sendable {
    let seen = Shared<[String]>([])

    /// `Append` items are recorded as "Append(<entry>)", everything else by its type name.
    var interceptor: StoreInterceptor {
        let seen = self.seen
        return { _ in
            { next in
                { item in
                    let label = (item as? Append).map { "Append(\($0.entry))" } ?? "\(type(of: item))"
                    seen.mutate { $0.append(label) }
                    try next(item)
                }
            }
        }
    }
}

// MARK: - A store of the other state type

typealias ForeignStore = Store<ForeignState, ObsDependencies>

/// Adds `amount` to `ForeignState.value`.
struct AddToForeignValue: StateUpdater {
    let amount: Int
    func updateState(_ state: inout ForeignState) { state.value += amount }
}
