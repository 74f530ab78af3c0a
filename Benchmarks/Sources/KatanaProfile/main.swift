import Katana
import KatanaBenchmarkSupport
import KatanaObservers

// A plain program running one benchmark workload, without the benchmark harness, for profilers:
//   perf record -g .build/release/KatanaProfile updaters 1000000
//   valgrind --tool=callgrind .build/release/KatanaProfile updaters 20000
// Workloads: updaters, interceptors, onchange, onchange-stored, listeners, sideeffects, asyncsideeffects,
// roundtrip.
let arguments = CommandLine.arguments.dropFirst()
let workload = arguments.first ?? "updaters"
let count = arguments.dropFirst().first.flatMap { Int($0) } ?? 100_000

func burst(_ store: BenchStore) {
    var last: Promise<Void>?
    for _ in 0 ..< count {
        last = store.dispatch(Increment())
    }
    last?.settled("last updater")
    check(store.state.counter == count, "counter is \(store.state.counter), expected \(count)")
}

switch workload {
case "updaters":
    burst(BenchStore())
case "interceptors":
    let passThrough: StoreInterceptor = { _ in { next in { item in try next(item) } } }
    burst(BenchStore(interceptors: Array(repeating: passThrough, count: 10)))
case "onchange":
    let observer = ObserverInterceptor.observe {
        for index in 0 ..< 100 {
            OnChange(of: \BenchState.untouched[index]) { _, _ in nil }
        }
    }
    burst(BenchStore(interceptors: [observer]))
case "onchange-stored":
    let observer = ObserverInterceptor.observe {
        for keyPath in BenchState.unchangedStoredFields {
            OnChange(of: keyPath) { _, _ in nil }
        }
    }
    burst(BenchStore(interceptors: [observer]))
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
case "roundtrip":
    let store = BenchStore()
    for _ in 0 ..< count {
        store.dispatch(Increment()).settled("round trip")
    }
default:
    fatalError("unknown workload \(workload)")
}
print("\(workload): \(count) done")
