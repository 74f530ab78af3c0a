import Foundation

/// Sizes of the benchmarks. The full run uses the sizes the performance targets are written for;
/// smoke mode (`KATANA_BENCH_SMOKE=1`, set by `Benchmarks/smoke.sh`) shrinks them so that CI
/// only checks that every benchmark builds, runs and finishes.
public enum Scale {
    /// Whether the benchmarks run in smoke mode.
    public static let isSmoke: Bool = ProcessInfo.processInfo.environment["KATANA_BENCH_SMOKE"] == "1"

    /// `full` in a full run, `smoke` in smoke mode.
    public static func count(_ full: Int, smoke: Int) -> Int {
        isSmoke ? smoke : full
    }

    /// Dispatches per burst in the throughput benchmarks.
    public static let dispatches = count(100_000, smoke: 1_000)
    /// Side effects per burst.
    public static let sideEffects = count(10_000, smoke: 100)
    /// Side effects in the large burst.
    public static let sideEffectBurst = count(100_000, smoke: 100)
    /// Side effects started one after another while others block (one per benchmark iteration).
    public static let startLatencies = count(2_000, smoke: 10)
    /// Sequential round trips (one per benchmark iteration).
    public static let roundTrips = count(10_000, smoke: 10)
    /// Listeners in the listener benchmark.
    public static let listeners = 100
    /// Appends per iteration in the large-state benchmarks.
    public static let appends = count(1_000, smoke: 10)
    /// Blocks per burst in the queue-hop floor.
    public static let queueHops = count(100_000, smoke: 1_000)
    /// Operations per iteration in the mutex floor.
    public static let mutexOps = count(1_000_000, smoke: 1_000)
    /// Promise operations per iteration.
    public static let promises = count(100_000, smoke: 1_000)
    /// Promise chains per iteration.
    public static let promiseChains = count(1_000, smoke: 10)
    /// In-flight dispatches in the memory burst.
    public static let memoryBurst = count(100_000, smoke: 1_000)
}
