import Foundation
import Katana
import KatanaTestSupport
import Testing

// Written as a Katana 6 app writes its store: a subclass of `Store` that inherits the initialisers
// and wraps `dispatch` and `addListener`, the `StateInitializer<S>` spelling, a Katana 6 executor
// with the deprecated `execute(_:)`, and `SignpostLogger.isEnabled = true`. Swift 5 language mode.

struct CounterAppState: State {
    var count = 0
}

final class CounterDependencies: SideEffectDependencyContainer {
    init(dispatch: @escaping AnyDispatch, getState: @escaping GetState) {}
}

struct AddToCount: StateUpdater {
    let amount: Int
    func updateState(_ state: inout CounterAppState) {
        state.count += amount
    }
}

// The one edit from Katana: a subclass restates `@unchecked Sendable` (Swift warns otherwise).
final class AppCounterStore: Store<CounterAppState, CounterDependencies>, @unchecked Sendable {
    let dispatchedUpdaters = LockedList<Int>()
    let addedListeners = LockedList<Int>()

    @discardableResult
    override func dispatch<T: AnyStateUpdater>(_ dispatchable: T) -> Promise<Void> {
        dispatchedUpdaters.append(1)
        return super.dispatch(dispatchable)
    }

    @discardableResult
    override func addListener(_ listener: @escaping StoreListener<CounterAppState>) -> StoreUnsubscribe {
        addedListeners.append(1)
        return super.addListener(listener)
    }
}

/// A Katana 6 executor: it still implements the deprecated `execute(_:)` beside the new methods.
final class InlineExecutor: Executor {
    func execute(_ block: @escaping @Sendable () -> Void) { block() }
    func executeAsync(_ block: @escaping @Sendable () -> Void) { block() }
    func executeSync<T>(_ block: () throws -> T) rethrows -> T { try block() }
}

@Suite struct Katana6StoreSubclassTests {
    @Test func appStoreSubclass_compilesAndItsOverridesRun() async throws {
        let initializer: PartialStore<CounterAppState>.StateInitializer<CounterAppState> = { CounterAppState(count: 1) }
        let store = AppCounterStore(
            interceptors: [],
            stateInitializer: initializer,
            configuration: .init(listenersAsyncProvider: DispatchQueue(label: "client.listeners"))
        )
        let heard = LockedList<Int>()
        store.addListener { _, new in heard.append(new.count) }
        let asPartial: PartialStore<CounterAppState> = store
        try await withTimeout("the dispatch") { try await asPartial.dispatch(AddToCount(amount: 2)).value }
        #expect(store.state.count == 3)
        #expect(store.dispatchedUpdaters.all.count == 1)
        #expect(store.addedListeners.all.count == 1)
        #expect(heard.all == [3])
    }

    @Test func katana6Executor_compiles() throws {
        let ran = LockedList<Int>()
        InlineExecutor().execute { ran.append(1) }
        #expect(ran.all == [1])
    }

    /// Katana 6's line, `SignpostLogger.isEnabled = true`, turns tracing on for every store that
    /// was given no logger; on Linux the shared logger's hook is where the events go. The only
    /// test in the process that turns the switch on: other tests' stores trace meanwhile too, so
    /// the events are filtered by this test's own updater.
    @Test func signpostLoggerSwitch_tracesAStoreGivenNoLogger_throughTheSharedLogger() async throws {
        let names = LockedList<String>()
        SignpostLogger.shared.setHook { event in
            if event.name.hasSuffix("TracedBySwitch") { names.append(event.name) }
        }
        defer { SignpostLogger.shared.setHook { _ in } }
        let store = Store<CounterAppState, CounterDependencies>()
        // The switch is the whole process's: it is on only while the app's blocking dispatch runs
        // (on a thread of its own), which handles the item on that thread when the store is idle.
        try await onThreadOfItsOwn("the traced and untraced dispatches") {
            SignpostLogger.isEnabled = true
            try store.dispatch(TracedBySwitch()).wait(timeout: .seconds(10))
            SignpostLogger.isEnabled = false
            try store.dispatch(TracedBySwitch()).wait(timeout: .seconds(10))
        }
        // One begin and one end, for the dispatch made while the switch was on.
        #expect(names.all.count == 2)
        #expect(!SignpostLogger.isEnabled)
    }
}

/// The updater `signpostLoggerSwitch_…` traces.
struct TracedBySwitch: StateUpdater {
    func updateState(_ state: inout CounterAppState) {}
}
