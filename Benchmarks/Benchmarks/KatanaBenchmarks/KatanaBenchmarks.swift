import Benchmark

// Every figure is read as a ratio to the floors measured in the same run (see docs/PERFORMANCE.md);
// `Benchmarks/report.py` turns the exported results into those ratios. Benchmark names carry the
// number of operations per iteration, and report.py divides by it: keep the two in step.
let benchmarks: @Sendable () -> Void = {
    registerAll()
}

/// Registers every benchmark; deprecated only because it registers the legacy (Katana 2.x) ones.
@available(*, deprecated, message: "Registers the legacy benchmarks on purpose")
private func registerAll() {
    registerFloorBenchmarks()
    registerUpdaterBenchmarks()
    registerReferenceBenchmarks()
    registerSideEffectBenchmarks()
    registerBlockingBenchmarks()
    registerLatencyBenchmarks()
    registerLargeStateBenchmarks()
    registerPromiseBenchmarks()
    registerMemoryBenchmarks()
    registerLegacyBenchmarks()
    registerTestingBenchmarks()
    registerRecordingBenchmarks()
    registerToolsBenchmarks()
}
