import Benchmark
import Katana
import KatanaBenchmarkSupport
import KatanaLogging
import KatanaMetrics
import Logging
import Metrics

/// What the Tools package's interceptors add to an updater, each alone in a store: `StoreLogger`
/// when its lines are dropped by the logger's level (a service in production) and when each is
/// written (to a handler that keeps nothing, so that what is measured is the interceptor's own
/// work: the line, its metadata), and `StoreMetrics` with swift-metrics' no-op backend. Compare with
/// "Updaters: back-to-back" (`--filter "Updaters: back-to-back|Tools.*"`); docs/LoggingAndMetrics.md
/// quotes the figures.
func registerToolsBenchmarks() {
    let count = Scale.dispatches

    Benchmark("Tools: updaters through StoreLogger, lines dropped by the level \(ops(count))", configuration: Configurations.burst()) { benchmark in
        var logger = Logger(label: "bench.store") { _ in DiscardingLogHandler() }
        logger.logLevel = .info
        dispatchBurst(to: BenchStore(interceptors: Interceptors { StoreLogger(logger) }), count: count, benchmark: benchmark)
    }

    Benchmark("Tools: updaters through StoreLogger, every line written \(ops(count))", configuration: Configurations.burst()) { benchmark in
        var logger = Logger(label: "bench.store") { _ in DiscardingLogHandler() }
        logger.logLevel = .debug
        dispatchBurst(to: BenchStore(interceptors: Interceptors { StoreLogger(logger) }), count: count, benchmark: benchmark)
    }

    Benchmark("Tools: updaters through StoreMetrics, no-op backend \(ops(count))", configuration: Configurations.burst()) { benchmark in
        let metrics = StoreMetrics(factory: NOOPMetricsHandler.instance)
        dispatchBurst(to: BenchStore(interceptors: Interceptors { metrics }), count: count, benchmark: benchmark)
    }
}

/// A log handler that takes every line at any level and keeps none of it.
private struct DiscardingLogHandler: LogHandler {
    var logLevel: Logger.Level = .trace
    var metadata: Logger.Metadata = [:]

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {}
}
