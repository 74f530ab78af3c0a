import KatanaBenchmarkSupport

// Measures resident memory per in-flight dispatch in a process of its own, without the benchmark
// package's malloc interposer (which adds a header to every allocation): see docs/PERFORMANCE.md.
// Usage: KatanaMemoryProbe [dispatches] [--keep-freed-memory]
// (default 100000; the option turns off the store's release after bursts, to see what glibc keeps)
let arguments = CommandLine.arguments.dropFirst()
let count = arguments.lazy.compactMap { Int($0) }.first ?? 100_000
let releasesMemory = !arguments.contains("--keep-freed-memory")
let result = measureMemoryBurst(count: count, releasesMemory: releasesMemory)
print(result)
let freeRunning = measureFreeRunningBurst(count: count, releasesMemory: releasesMemory)
print("free-running burst with a listener: RSS \(freeRunning / 1024) KiB above baseline 1.5 s after it")
// One machine-readable line for Benchmarks/report.py.
print("MEMORY rss_per_dispatch=\(result.rssPerDispatch) heap_per_dispatch=\(result.heapPerDispatch) residual_trimmed_rss=\(result.residualTrimmedRSS) residual_untrimmed_rss=\(result.idleRSS - result.baselineRSS) settled_heap=\(result.settledHeapImmediately - result.baselineHeap) residual_heap=\(result.residualHeap) free_running_untrimmed_rss=\(freeRunning)")
