import Foundation
import Katana
import KatanaBenchmarkSupport
import KatanaObservers
import KatanaRecording

// A plain program running one benchmark workload, without the benchmark harness, for profilers:
//   perf record -g .build/release/KatanaProfile updaters 1000000
//   valgrind --tool=callgrind .build/release/KatanaProfile updaters 20000
// Workloads: updaters, interceptors (ten closure interceptors), interceptors-fast (ten Interceptor
// values), onchange, onchange-stored, keypath-listeners, listeners, sideeffects, asyncsideeffects,
// asyncsideeffects-yielding (each body suspends once),
// roundtrip, roundtrip-latency (each round trip timed on its own, and the dispatch call alone:
// percentiles printed); and producer, which times the dispatching thread and the store's queue
// separately (the queue held while 20,000 updaters are dispatched, then released), to see which
// side limits a burst; and recorded, the updaters workload with every item recorded into memory
// (a `StoreRecorder` into a `FlightRecorder` of capacity 10,000, installed as the only interceptor),
// with updaters-small and recorded-small, the same two on a 24-byte state (`SmallState`); and hops,
// `count` rounds of the queue-hop floor beside bursts of awaited side effects, in hops.
let arguments = ProfileArguments(defaultWorkload: "updaters")
let workload = arguments.workload
let count = arguments.count


/// A nonisolated async function that returns at once, as the simplest side effect body does.
@inline(never)
func bareTaskBody() async {}

/// A value behind a lock, for the bare-tasks workload.
final class Locked<Value>: @unchecked Sendable {
    // @unchecked: `value` is only touched under `lock`.
    private let lock = NSLock()
    private var value: Value
    init(_ value: Value) { self.value = value }
    func withLock<Result>(_ body: (inout Value) -> Result) -> Result {
        lock.lock()
        defer { lock.unlock() }
        return body(&value)
    }
}

switch workload {
case "updaters":
    burst(BenchStore(), count: count)
case "recorded":
    // What recording costs per updater when it only keeps values: the recorder reads the state
    // after each item and the flight recorder keeps the item and that state, evicting the oldest
    // once 10,000 are kept; nothing is encoded.
    let flightRecorder = FlightRecorder<BenchState>(capacity: 10_000)
    burst(BenchStore(interceptors: Interceptors { StoreRecorder(to: flightRecorder) }), count: count)
    let before = flightRecorder.stateBeforeFirstItem?.counter
    check(before == max(0, count - 10_000), "the flight recorder's oldest kept item follows counter \(String(describing: before))")
case "updaters-small":
    burst(SmallStore(), count: count)
case "recorded-small":
    let flightRecorder = FlightRecorder<SmallState>(capacity: 10_000)
    burst(SmallStore(interceptors: Interceptors { StoreRecorder(to: flightRecorder) }), count: count)
    let before = flightRecorder.stateBeforeFirstItem?.counter
    check(before == max(0, count - 10_000), "the flight recorder's oldest kept item follows counter \(String(describing: before))")
case "interceptors":
    let passThrough: StoreInterceptor = { _ in { next in { item in try next(item) } } }
    burst(BenchStore(interceptors: Array(repeating: passThrough, count: 10)), count: count)
case "interceptors-fast":
    burst(BenchStore(interceptors: Interceptors {
        PassThrough(); PassThrough(); PassThrough(); PassThrough(); PassThrough()
        PassThrough(); PassThrough(); PassThrough(); PassThrough(); PassThrough()
    }), count: count)
case "onchange":
    let observer = ObserverInterceptor.observe {
        for index in 0 ..< 100 {
            OnChange(of: \BenchState.untouched[index]) { _, _ in nil }
        }
    }
    burst(BenchStore(interceptors: [observer]), count: count)
case "onchange-stored":
    let observer = ObserverInterceptor.observe {
        for keyPath in BenchState.unchangedStoredFields {
            OnChange(of: keyPath) { _, _ in nil }
        }
    }
    burst(BenchStore(interceptors: [observer]), count: count)
case "keypath-listeners":
    // The same 100 unchanged stored fields as onchange-stored, watched by key-path listeners.
    let store = BenchStore()
    for keyPath in BenchState.unchangedStoredFields {
        store.addListener(of: keyPath) { _, _ in }
    }
    burst(store, count: count)
case "listeners":
    let store = BenchStore()
    let done = DispatchSemaphoreBox()
    for index in 0 ..< 100 {
        store.addListener { _, new in
            if index == 99 && new.counter == count { done.signal() }
        }
    }
    for _ in 0 ..< count {
        store.dispatch(Increment())
    }
    done.wait()
case "sideeffects":
    let store = BenchStore()
    let promises = (0 ..< count).map { _ in store.dispatch(NoOpSideEffect()) }
    promises.forEach { $0.settled("side effect") }
case "asyncsideeffects":
    let store = BenchStore()
    let promises = (0 ..< count).map { _ in store.dispatch(NoOpAsyncSideEffect()) }
    promises.forEach { $0.settled("async side effect") }
case "asyncsideeffects-yielding":
    // Async side effects that each suspend once: a task of its own each, ending on the global
    // executor (what an async side effect that awaits I/O costs the store).
    let store = BenchStore()
    let promises = (0 ..< count).map { _ in store.dispatch(YieldingAsyncSideEffect()) }
    promises.forEach { $0.settled("yielding async side effect") }
case "bare-tasks":
    // The runtime's own cost of what an async side effect needs at least: a task started at once
    // on the dispatching thread, whose body awaits a nonisolated async function and reports its
    // end; no store. A floor to compare `asyncsideeffects` with (docs/PERFORMANCE.md).
    let remaining = Locked(count)
    let done = DispatchSemaphoreBox()
    for _ in 0 ..< count {
        _ = Task.immediate {
            await bareTaskBody()
            if remaining.withLock({ value in value -= 1; return value }) == 0 { done.signal() }
        }
    }
    done.wait()
case "blocked-start":
    // From a fresh process: dispatch `count` side effects that block on a semaphore, then one
    // more; prints how long until all the blocked ones had started and until the extra one did
    // (a cold pool: what the first blocking side effects of a service see).
    let store = BenchStore()
    let gate = DispatchSemaphoreBox()
    let blockedStarted = DispatchSemaphoreBox()
    let extraStarted = DispatchSemaphoreBox()
    let start = DispatchTime.now().uptimeNanoseconds
    for _ in 0 ..< count {
        store.dispatch(BlockOnGate(started: blockedStarted, gate: gate))
    }
    store.dispatch(SignalStart(started: extraStarted))
    extraStarted.wait()
    let extra = DispatchTime.now().uptimeNanoseconds
    for _ in 0 ..< count {
        blockedStarted.wait()
    }
    let all = DispatchTime.now().uptimeNanoseconds
    for _ in 0 ..< count {
        gate.signal()
    }
    print("blocked-start \(count): the extra side effect started after \(Double(extra - start) / 1e6) ms, all \(count) blocked ones after \(Double(all - start) / 1e6) ms")
case "hops":
    // `count` rounds, each timing a serial queue hop ×100,000 (the benchmarks' floor), then a burst
    // of 10,000 awaited no-op `SideEffect`s, then of `AsyncSideEffect`s, in this one process: the
    // burst per item in hops of the same round's floor, without the harness, and how long the
    // `SideEffect` burst's dispatch calls alone took (docs/PERFORMANCE.md). The bursts are plain
    // loops, as in the benchmark: a closure per item written here (`map { ... }`) is main-actor
    // code, which checks its executor on each call (about 440 instructions an item).
    var floor: [Double] = [], sync: [Double] = [], async: [Double] = [], dispatching: [Double] = []
    var promises: [Promise<Void>] = []
    promises.reserveCapacity(10_000)
    func perItem(_ items: Int, _ body: () -> Void) -> Double {
        let start = DispatchTime.now().uptimeNanoseconds
        body()
        return Double(DispatchTime.now().uptimeNanoseconds - start) / Double(items)
    }
    for _ in 0 ..< count {
        floor.append(perItem(100_000) {
            let ran = hop(onto: DispatchQueue(label: "Floor.serial"), times: 100_000)
            check(ran == 100_000, "queue floor: \(ran) blocks ran, expected 100,000")
        })
        sync.append(perItem(10_000) {
            let store = BenchStore()
            let start = DispatchTime.now().uptimeNanoseconds
            for _ in 0 ..< 10_000 { promises.append(store.dispatch(NoOpSideEffect())) }
            dispatching.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 10_000)
            for promise in promises { promise.settled("side effect") }
        })
        promises.removeAll(keepingCapacity: true)
        async.append(perItem(10_000) {
            let store = BenchStore()
            for _ in 0 ..< 10_000 { promises.append(store.dispatch(NoOpAsyncSideEffect())) }
            for promise in promises { promise.settled("async side effect") }
        })
        promises.removeAll(keepingCapacity: true)
    }
    func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }
    let ratios = { (burst: [Double]) in median(zip(burst, floor).map { $0 / $1 }) }
    print(String(format: "hops: floor %.0f ns (min %.0f); SideEffect %.0f ns, %.2f hops (per-round median %.2f; the dispatch calls alone %.0f ns); AsyncSideEffect %.0f ns, %.2f hops (per-round median %.2f)",
                 median(floor), floor.min() ?? 0, median(sync), median(sync) / median(floor), ratios(sync), median(dispatching),
                 median(async), median(async) / median(floor), ratios(async)))
case "producer":
    let store = BenchStore()
    var producing: UInt64 = 0
    var consuming: UInt64 = 0
    let batch = 20_000
    for _ in 0 ..< count / batch {
        let gate = DispatchSemaphoreBox()
        store.dispatch(HoldQueue(gate: gate))
        Thread.sleep(forTimeInterval: 0.002)
        let start = DispatchTime.now().uptimeNanoseconds
        var last: Promise<Void>?
        for _ in 0 ..< batch { last = store.dispatch(Increment()) }
        let mid = DispatchTime.now().uptimeNanoseconds
        gate.signal()
        last?.settled("last")
        let end = DispatchTime.now().uptimeNanoseconds
        producing += mid - start
        consuming += end - mid
    }
    print("producer \(Double(producing) / Double(count)) ns/op, consumer \(Double(consuming) / Double(count)) ns/op")
case "roundtrip":
    let store = BenchStore()
    for _ in 0 ..< count {
        store.dispatch(Increment()).settled("round trip")
    }
case "roundtrip-latency":
    // Each round trip timed on its own, then the distribution: where the tail starts.
    let store = BenchStore()
    var samples = [UInt64](repeating: 0, count: count)
    var dispatching = [UInt64](repeating: 0, count: count)
    for index in 0 ..< count {
        let start = DispatchTime.now().uptimeNanoseconds
        let promise = store.dispatch(Increment())
        let dispatched = DispatchTime.now().uptimeNanoseconds
        promise.settled("round trip")
        samples[index] = DispatchTime.now().uptimeNanoseconds - start
        dispatching[index] = dispatched - start
    }
    func distribution(_ samples: [UInt64]) -> String {
        let sorted = samples.sorted()
        let figures = [50.0, 90.0, 99.0, 99.9].map { percentile in
            "p\(percentile.formatted()) \(sorted[min(count - 1, Int(Double(count) * percentile / 100))]) ns"
        }
        return figures.joined(separator: ", ") + ", max \(sorted[count - 1]) ns"
    }
    print("roundtrip-latency: \(distribution(samples)); the dispatch call alone: \(distribution(dispatching))")
default:
    fatalError("unknown workload \(workload)")
}
print("\(workload): \(count) done")
