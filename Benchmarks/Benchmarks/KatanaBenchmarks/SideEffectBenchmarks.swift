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
        measureAwaitedBurst(of: NoOpAsyncSideEffect(), count: count, in: benchmark)
    }

    Benchmark("Side effects: AsyncSideEffect that yields once (all awaited) \(ops(count))", configuration: Configurations.burst()) { benchmark in
        measureAwaitedBurst(of: YieldingAsyncSideEffect(), count: count, in: benchmark)
    }
}

/// Measures `count` dispatches of `sideEffect` to a new store, until every promise has settled.
private func measureAwaitedBurst<Effect: AsyncSideEffect>(of sideEffect: Effect, count: Int, in benchmark: Benchmark)
    where Effect.ReturnValue == Void, Effect.StateType == BenchState {
    let store = BenchStore()
    var promises: [Promise<Void>] = []
    promises.reserveCapacity(count)
    benchmark.startMeasurement()
    for _ in 0 ..< count {
        promises.append(store.dispatch(sideEffect))
    }
    for promise in promises {
        promise.settled("\(Effect.self)")
    }
    benchmark.stopMeasurement()
}
