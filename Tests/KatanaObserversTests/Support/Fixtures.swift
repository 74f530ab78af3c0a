import Dispatch
import Foundation
import Katana
import KatanaObservers
import KatanaTestSupport

// Shared fixtures of the KatanaObservers tests: one state, a few updaters and side effects, a
// store factory, the waits for a store's log and a recording interceptor.
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

extension ObsStore {
    /// The log entries that start with `prefix`, in order.
    func entries(_ prefix: String) -> [String] {
        state.log.filter { $0.hasPrefix(prefix) }
    }

    /// Dispatches `Append(entry)` and waits until it has been applied.
    func appendAndWait(_ entry: String) async throws {
        try await dispatch(Append(entry)).settled()
    }

    /// Suspends until the log contains `entry`, woken each time the store runs out of work.
    func waitForEntry(_ entry: String) async throws {
        try await waitUntil("the log entry '\(entry)'") { state.log.contains(entry) }
    }

    /// Suspends until the log contains `entry`, then appends a sentinel entry: by the time it is
    /// applied, no rule of what came before can still add to the log.
    func waitForEntryThenSentinel(_ entry: String) async throws {
        try await waitForEntry(entry)
        try await appendAndWait("sentinel")
    }

    /// Bumps the count twice, with changes to other fields between (an unrelated log entry, and
    /// the level too when `changingTheLevel`), then waits until the second bump's "count 1->2"
    /// has been logged.
    func bumpTwiceAroundOtherChanges(changingTheLevel: Bool = false) async throws {
        try await dispatch(Bump()).settled()
        if changingTheLevel {
            try await dispatch(SetLevel("debug")).settled()
        }
        try await appendAndWait("unrelated entry")
        try await dispatch(Bump()).settled()
        try await waitForEntry("count 1->2")
    }
}

extension NotificationCenter {
    /// Posts a notification named `name`, with no object, for each of `values`: `["value": value]`
    /// as its user info, or none for nil.
    func post(_ name: Notification.Name, values: [String?]) {
        for value in values {
            post(name: name, object: nil, userInfo: value.map { ["value": $0] })
        }
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
        try context.dispatch(Append(entry)).wait(timeout: defaultTestTimeout)
    }
}

// MARK: - Recording

/// An interceptor that records a label for every item that passes through it, then passes it on.
final class RecordingInterceptor: Sendable {
    let seen = LockedList<String>()

    /// `Append` items are recorded as "Append(<entry>)", everything else by its type name.
    var interceptor: StoreInterceptor {
        let seen = self.seen
        return { _ in
            { next in
                { item in
                    let label = (item as? Append).map { "Append(\($0.entry))" } ?? "\(type(of: item))"
                    seen.append(label)
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
