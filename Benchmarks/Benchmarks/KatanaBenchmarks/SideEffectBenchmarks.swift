import Benchmark
import Katana
import KatanaBenchmarkSupport

func registerSideEffectBenchmarks() {
    let count = Scale.sideEffects

    Benchmark("Side effects: no-op SideEffect (all awaited) \(ops(count))", configuration: Configurations.burst()) { benchmark in
        let store = BenchStore()
        var promises: [Promise<Void>] = []
        promises.reserveCapacity(count)
        benchmark.startMeasurement()
        for _ in 0 ..< count {
            promises.append(store.dispatch(NoOpSideEffect()))
        }
        for promise in promises {
            promise.settled("side effect")
        }
        benchmark.stopMeasurement()
    }

    Benchmark("Side effects: no-op AsyncSideEffect (all awaited) \(ops(count))", configuration: Configurations.burst()) { benchmark in
        let store = BenchStore()
        var promises: [Promise<Void>] = []
        promises.reserveCapacity(count)
        benchmark.startMeasurement()
        for _ in 0 ..< count {
            promises.append(store.dispatch(NoOpAsyncSideEffect()))
        }
        for promise in promises {
            promise.settled("async side effect")
        }
        benchmark.stopMeasurement()
    }
}
