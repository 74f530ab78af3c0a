import Benchmark
import KatanaBenchmarkSupport

/// Custom metrics of the memory benchmark (not per iteration time, so no scaling).
private enum MemoryMetrics {
    static let rssPerDispatch = BenchmarkMetric.custom("RSS bytes per in-flight dispatch", useScalingFactor: false)
    static let heapPerDispatch = BenchmarkMetric.custom("heap bytes per in-flight dispatch", useScalingFactor: false)
    static let residualKiB = BenchmarkMetric.custom("RSS KiB above baseline after settling", useScalingFactor: false)
}

func registerMemoryBenchmarks() {
    // Runs in the benchmark process, whose malloc interposer adds a header to every allocation;
    // `KatanaMemoryProbe` measures the same thing without it (run.sh runs both).
    let count = Scale.memoryBurst
    Benchmark(
        "Memory: in-flight dispatch burst \(ops(count))",
        configuration: .init(
            metrics: [MemoryMetrics.rssPerDispatch, MemoryMetrics.heapPerDispatch, MemoryMetrics.residualKiB],
            warmupIterations: 0,
            maxDuration: .seconds(60),
            maxIterations: Scale.isSmoke ? 1 : 5
        )
    ) { benchmark in
        let result = measureMemoryBurst(count: count)
        benchmark.measurement(MemoryMetrics.rssPerDispatch, Int(result.rssPerDispatch.rounded()))
        benchmark.measurement(MemoryMetrics.heapPerDispatch, Int(result.heapPerDispatch.rounded()))
        benchmark.measurement(MemoryMetrics.residualKiB, result.residualTrimmedRSS / 1024)
    }
}
