import Benchmark
import KatanaBenchmarkSupport

/// Configurations shared by the benchmarks: few iterations of a large burst, or many iterations
/// of one short operation. Smoke mode runs each benchmark once, without warm-up.
enum Configurations {
    /// A burst of many operations per iteration: wall time and mallocs of the whole burst.
    static func burst(iterations: Int = 15) -> Benchmark.Configuration {
        .init(
            metrics: [.wallClock, .mallocCountTotal],
            timeUnits: .microseconds,
            warmupIterations: Scale.isSmoke ? 0 : 1,
            maxDuration: .seconds(Scale.isSmoke ? 1 : 20),
            maxIterations: Scale.isSmoke ? 1 : iterations
        )
    }

    /// One short operation per iteration, many iterations: the percentiles are the latency distribution.
    static func latency(iterations: Int) -> Benchmark.Configuration {
        .init(
            metrics: [.wallClock, .mallocCountTotal],
            timeUnits: .nanoseconds,
            warmupIterations: Scale.isSmoke ? 0 : 100,
            maxDuration: .seconds(Scale.isSmoke ? 1 : 30),
            maxIterations: iterations
        )
    }
}

/// Formats an operation count the way benchmark names carry it (report.py parses it back).
func ops(_ count: Int) -> String {
    "×\(count)"
}
