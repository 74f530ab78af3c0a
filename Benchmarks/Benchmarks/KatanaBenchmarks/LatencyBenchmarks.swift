import Benchmark
import KatanaBenchmarkSupport

func registerLatencyBenchmarks() {
    // One dispatch and a blocking wait for its promise per iteration; the iterations' percentiles
    // are the latency distribution (median and p99 in docs/PERFORMANCE.md).
    let store = BenchStore()
    Benchmark("Round trip: dispatch one updater + wait \(ops(1))", configuration: Configurations.latency(iterations: Scale.roundTrips)) { _ in
        store.dispatch(Increment()).settled("round trip")
    }
}
