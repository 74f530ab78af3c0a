import Benchmark
import Katana
import KatanaBenchmarkSupport

func registerLargeStateBenchmarks() {
    // Appends to an array in the state, with no listeners (so the store keeps no old state). The
    // array's capacity is reserved up front, so an append never reallocates: if the 1,000,000-element
    // figure is above the 1,000-element one, the store copied the state.
    let appends = Scale.appends
    for size in [1_000, 1_000_000] {
        Benchmark("Large state: append to an array of \(size) \(ops(appends))", configuration: Configurations.burst(iterations: 50)) { benchmark in
            let store = ArrayStore(interceptors: [], stateInitializer: { ArrayState(count: size, reserving: appends) })
            benchmark.startMeasurement()
            var last: Promise<Void>?
            for _ in 0 ..< appends {
                last = store.dispatch(Append())
            }
            last?.settled("last append")
            benchmark.stopMeasurement()
            check(store.state.items.count == size + appends, "large state: \(store.state.items.count) items")
        }
    }
}


