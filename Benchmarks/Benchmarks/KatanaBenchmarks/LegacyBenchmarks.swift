import Benchmark
import Katana
import KatanaBenchmarkSupport
import KatanaLegacy

/// The Katana 2.x action the legacy benchmarks dispatch: the same increment as `Increment`,
/// through the 2.x `updatedState(currentState:)` path (a copy in and out of an existential, so
/// not in place).
@available(*, deprecated, message: "Benchmarks the legacy path on purpose")
struct LegacyIncrement: Action {
    func updatedState(currentState: State) -> State {
        guard var state = currentState as? BenchState else { return currentState }
        state.counter &+= 1
        return state
    }
}

@available(*, deprecated, message: "Benchmarks the legacy path on purpose")
private func legacyBurst(to store: BenchStore, count: Int, benchmark: Benchmark) {
    let before = store.state.counter
    benchmark.startMeasurement()
    var last: Promise<Void>?
    for _ in 0 ..< count {
        last = store.dispatch(LegacyIncrement())
    }
    last?.settled("last legacy action of the burst")
    benchmark.stopMeasurement()
    check(store.state.counter == before + count, "counter is \(store.state.counter), expected \(before + count)")
}

@available(*, deprecated, message: "Benchmarks the legacy path on purpose")
func registerLegacyBenchmarks() {
    let count = Scale.dispatches

    Benchmark("Legacy: Action back-to-back \(ops(count))", configuration: Configurations.burst()) { benchmark in
        legacyBurst(to: BenchStore(), count: count, benchmark: benchmark)
    }

    // Ten 2.x middleware that pass every item on, bridged with middlewareToInterceptor: compare
    // with "Updaters: 10 pass-through interceptors".
    let passThrough: StoreMiddleware = { _, _ in { next in { item in next(item) } } }
    let bridged = [StoreInterceptor](repeating: middlewareToInterceptor(passThrough), count: 10)
    Benchmark("Legacy: 10 middleware via middlewareToInterceptor \(ops(count))", configuration: Configurations.burst()) { benchmark in
        legacyBurst(to: BenchStore(interceptors: bridged), count: count, benchmark: benchmark)
    }
}
