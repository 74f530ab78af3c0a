import Benchmark
import Katana
import KatanaBenchmarkSupport
import KatanaObservers

/// An updater type no store here ever receives: the target of the non-matching `OnDispatch` rules.
/// `Tag` makes `OtherItem<OtherItem<...>>` a new type at every nesting level.
struct OtherItem<Tag>: StateUpdater, Sendable {
    func updateState(_ state: inout BenchState) {}
}

/// `count` `OnDispatch` rules, each for a different type that is never dispatched.
private func nonMatchingDispatchRules<Tag>(_: Tag.Type, count: Int) -> [ObserverRule] {
    guard count > 0 else { return [] }
    let rule = OnDispatch(OtherItem<Tag>.self) { _ in nil }
    return rule.rules + nonMatchingDispatchRules(OtherItem<Tag>.self, count: count - 1)
}

/// Listener bookkeeping: listeners are never called concurrently (the store's guarantee), so the
/// counter needs no lock; the last listener signals when every call has been delivered.
private final class ListenerTally: @unchecked Sendable {
    // Touched only by the store's listeners, which it calls one at a time.
    var calls = 0
    let expected: Int
    let done = DispatchSemaphoreBox()
    init(expected: Int) { self.expected = expected }
}

/// Dispatches `count` increments back-to-back from this thread, waits for the last promise (updaters
/// settle in order, so every one has settled then) and checks the final state.
func dispatchBurst(to store: BenchStore, count: Int, benchmark: Benchmark) {
    let before = store.state.counter
    benchmark.startMeasurement()
    var last: Promise<Void>?
    for _ in 0 ..< count {
        last = store.dispatch(Increment())
    }
    last?.settled("last updater of the burst")
    benchmark.stopMeasurement()
    check(store.state.counter == before + count, "counter is \(store.state.counter), expected \(before + count)")
}

func registerUpdaterBenchmarks() {
    let count = Scale.dispatches

    Benchmark("Updaters: back-to-back \(ops(count))", configuration: Configurations.burst()) { benchmark in
        dispatchBurst(to: BenchStore(), count: count, benchmark: benchmark)
    }

    let passThrough: StoreInterceptor = { _ in { next in { item in try next(item) } } }
    let interceptors = [StoreInterceptor](repeating: passThrough, count: 10)
    Benchmark("Updaters: 10 pass-through interceptors \(ops(count))", configuration: Configurations.burst()) { benchmark in
        dispatchBurst(to: BenchStore(interceptors: interceptors), count: count, benchmark: benchmark)
    }

    // The same ten levels as interceptor values, composed by `Interceptors { ... }`.
    let values = Interceptors {
        PassThrough(); PassThrough(); PassThrough(); PassThrough(); PassThrough()
        PassThrough(); PassThrough(); PassThrough(); PassThrough(); PassThrough()
    }
    Benchmark("Updaters: 10 pass-through interceptor values \(ops(count))", configuration: Configurations.burst()) { benchmark in
        dispatchBurst(to: BenchStore(interceptors: values), count: count, benchmark: benchmark)
    }

    // The target's case: 100 OnChange rules on stored fields no updater changes (`g0.f0` … `g9.f9`,
    // two key-path components each). Each rule reads and compares its value around every updater,
    // so this is the rule kind whose cost grows with the number of rules (dispatch rules are looked
    // up by type, see the next benchmark). Rules on array elements (`\.untouched[i]`) cost more:
    // run `KatanaProfile onchange` to see them.
    Benchmark("Updaters: observer with 100 OnChange rules (none firing) \(ops(count))", configuration: Configurations.burst()) { benchmark in
        let observer = ObserverInterceptor.observe {
            for keyPath in BenchState.unchangedStoredFields {
                OnChange(of: keyPath) { _, _ in nil }
            }
        }
        dispatchBurst(to: BenchStore(interceptors: [observer]), count: count, benchmark: benchmark)
    }

    // The same 100 unchanged fields watched by key-path listeners (`addListener(of:)`) instead of
    // rules: each reads and compares its value for every change, on the listener executor; the
    // updaters' promises wait for them, so the burst is timed until every call has been made.
    Benchmark("Updaters: 100 key-path listeners (none called) \(ops(count))", configuration: Configurations.burst()) { benchmark in
        let store = BenchStore()
        for keyPath in BenchState.unchangedStoredFields {
            store.addListener(of: keyPath) { _, _ in }
        }
        dispatchBurst(to: store, count: count, benchmark: benchmark)
    }

    let dispatchRules = nonMatchingDispatchRules(Never.self, count: 100)
    Benchmark("Updaters: observer with 100 OnDispatch rules for other types \(ops(count))", configuration: Configurations.burst()) { benchmark in
        let observer = ObserverInterceptor.observe {
            for rule in dispatchRules {
                rule
            }
        }
        dispatchBurst(to: BenchStore(interceptors: [observer]), count: count, benchmark: benchmark)
    }

    // Timed until the last of dispatches × listeners calls has been delivered, on the default
    // listener executor (a serial queue of the store's own on Linux).
    let listeners = Scale.listeners
    Benchmark("Updaters: 100 listeners (until every call delivered) \(ops(count))", configuration: Configurations.burst()) { benchmark in
        let store = BenchStore()
        let tally = ListenerTally(expected: count * listeners)
        for _ in 0 ..< listeners - 1 {
            store.addListener { _, _ in tally.calls &+= 1 }
        }
        store.addListener { _, _ in
            tally.calls &+= 1
            if tally.calls == tally.expected {
                tally.done.signal()
            }
        }
        benchmark.startMeasurement()
        for _ in 0 ..< count {
            store.dispatch(Increment())
        }
        tally.done.wait()
        benchmark.stopMeasurement()
        check(store.state.counter == count, "listeners: counter is \(store.state.counter), expected \(count)")
    }
}
