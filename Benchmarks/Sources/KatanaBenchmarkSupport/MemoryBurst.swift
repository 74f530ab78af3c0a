import Dispatch
import Foundation
import Katana

/// The memory a burst of in-flight dispatches costs, measured on a store whose queue is held busy.
public struct MemoryBurstResult: Sendable, CustomStringConvertible {
    /// How many dispatches were in flight at the peak.
    public var dispatches: Int
    /// Resident memory (after an allocator trim) before the burst.
    public var baselineRSS: Int
    /// Resident memory with every dispatch in flight.
    public var peakRSS: Int
    /// Resident memory right when the last promise has settled.
    public var settledRSS: Int
    /// Bytes the allocator had handed out right when the last promise has settled.
    public var settledHeapImmediately: Int
    /// Resident memory once the store has gone idle (one more dispatch handled) and the store's
    /// post-burst release has had time to run, without the program trimming the allocator.
    public var idleRSS: Int
    /// Resident memory once the store is idle and the allocator gave back its free memory.
    public var settledTrimmedRSS: Int
    /// Bytes the allocator had handed out before the burst, at the peak, and once the store is idle.
    public var baselineHeap: Int
    public var peakHeap: Int
    public var settledHeap: Int

    /// Resident bytes per in-flight dispatch at the peak.
    public var rssPerDispatch: Double { Double(peakRSS - baselineRSS) / Double(dispatches) }
    /// Heap bytes per in-flight dispatch at the peak.
    public var heapPerDispatch: Double { Double(peakHeap - baselineHeap) / Double(dispatches) }
    /// Resident bytes above the baseline once idle and trimmed (what the store still holds).
    public var residualTrimmedRSS: Int { settledTrimmedRSS - baselineRSS }
    /// Heap bytes above the baseline once idle.
    public var residualHeap: Int { settledHeap - baselineHeap }

    public var description: String {
        func kib(_ bytes: Int) -> String { "\(bytes / 1024) KiB" }
        return """
        in-flight dispatches:            \(dispatches)
        RSS baseline / peak:             \(kib(baselineRSS)) / \(kib(peakRSS))
        RSS per in-flight dispatch:      \(Int(rssPerDispatch.rounded())) bytes
        heap per in-flight dispatch:     \(Int(heapPerDispatch.rounded())) bytes
        when the last promise settles:   RSS \(kib(settledRSS - baselineRSS)), heap \(kib(settledHeapImmediately - baselineHeap)) above baseline
        once the store is idle (0.5 s):  RSS \(kib(idleRSS - baselineRSS)), heap \(kib(residualHeap)) above baseline
        idle, after malloc_trim:         RSS \(kib(residualTrimmedRSS)) above baseline
        """
    }
}

/// Dispatches `count` trivial updaters to a store whose queue is held by a ``HoldQueue`` updater,
/// reads resident memory before and at the peak, then releases the queue, waits for the last
/// promise and reads it again. The promises of all but the last dispatch are dropped by the
/// caller, as fire-and-forget code does; the store keeps them until they settle.
/// `releasesMemory: false` turns off the store's release after bursts, to see what the allocator keeps.
public func measureMemoryBurst(count: Int, releasesMemory: Bool = true) -> MemoryBurstResult {
    let store = BenchStore(
        interceptors: [], stateInitializer: { BenchState() },
        configuration: .init(releasesMemoryAfterBursts: releasesMemory)
    )
    // Warm the store's paths once so their one-time allocations are not counted as the burst's.
    store.dispatch(Increment()).settled("warm-up dispatch")

    let gate = DispatchSemaphoreBox()
    let held = store.dispatch(HoldQueue(gate: gate))
    ProcessMemory.trim()
    let baselineRSS = ProcessMemory.residentBytes() ?? 0
    let baselineHeap = ProcessMemory.heapInUseBytes() ?? 0

    var last: Promise<Void>?
    for _ in 0 ..< count {
        last = store.dispatch(Increment())
    }
    let peakRSS = ProcessMemory.residentBytes() ?? 0
    let peakHeap = ProcessMemory.heapInUseBytes() ?? 0

    gate.signal()
    held.settled("queue holder")
    last?.settled("last dispatch of the burst")
    last = nil
    check(store.state.counter == count + 1, "memory burst: counter is \(store.state.counter), expected \(count + 1)")

    let settledRSS = ProcessMemory.residentBytes() ?? 0
    let settledHeapImmediately = ProcessMemory.heapInUseBytes() ?? 0
    // The engine may still hold the drained batch (and with it the settled promises) for a moment
    // after the last promise settles; one more dispatch is handled only after that batch is freed.
    store.dispatch(Increment()).settled("dispatch after the burst")
    // The store gives the memory a burst freed back to the system a moment after the burst.
    Thread.sleep(forTimeInterval: 0.5)
    let idleRSS = ProcessMemory.residentBytes() ?? 0
    let settledHeap = ProcessMemory.heapInUseBytes() ?? 0
    ProcessMemory.trim()
    let settledTrimmedRSS = ProcessMemory.residentBytes() ?? 0
    return MemoryBurstResult(
        dispatches: count,
        baselineRSS: baselineRSS, peakRSS: peakRSS,
        settledRSS: settledRSS, settledHeapImmediately: settledHeapImmediately, idleRSS: idleRSS,
        settledTrimmedRSS: settledTrimmedRSS,
        baselineHeap: baselineHeap, peakHeap: peakHeap, settledHeap: settledHeap
    )
}

/// Dispatches `count` trivial updaters as fast as one thread can to a store that runs freely (no
/// held queue) and has a listener, waits for the last promise, gives the store 1.5 s (the store
/// gives memory back at most once a second), and returns how far resident memory stayed above what
/// it was before the burst, without the program trimming the allocator: what a service sees after
/// a spike.
public func measureFreeRunningBurst(count: Int, releasesMemory: Bool = true) -> Int {
    let store = BenchStore(
        interceptors: [], stateInitializer: { BenchState() },
        configuration: .init(releasesMemoryAfterBursts: releasesMemory)
    )
    store.addListener { _, _ in }
    store.dispatch(Increment()).settled("warm-up dispatch")
    let baseline = ProcessMemory.residentBytes() ?? 0
    var last: Promise<Void>?
    for _ in 0 ..< count {
        last = store.dispatch(Increment())
    }
    last?.settled("last dispatch of the free-running burst")
    last = nil
    Thread.sleep(forTimeInterval: 1.5)
    return (ProcessMemory.residentBytes() ?? 0) - baseline
}
