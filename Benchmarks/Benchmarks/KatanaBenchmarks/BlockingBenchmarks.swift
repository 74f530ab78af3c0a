import Benchmark
import Katana
import KatanaBenchmarkSupport

/// A store with side effects blocked on a semaphore (as a synchronous network call blocks), for
/// measuring how soon another side effect starts beside them.
final class BlockedSideEffects: Sendable {
    let store = BenchStore()
    private let blocked: Int
    private let gate = DispatchSemaphoreBox()
    private let blockedStarted = DispatchSemaphoreBox()
    private let started = DispatchSemaphoreBox()

    init(blocked: Int) {
        self.blocked = blocked
    }

    /// Dispatches the blocking side effects and waits until every one has started.
    func block() {
        for _ in 0 ..< blocked {
            store.dispatch(BlockOnGate(started: blockedStarted, gate: gate))
        }
        for _ in 0 ..< blocked {
            blockedStarted.wait()
        }
    }

    /// Dispatches one side effect and waits until its body has started.
    func dispatchAndWaitForStart() {
        store.dispatch(SignalStart(started: started))
        started.wait()
    }

    /// Releases the blocking side effects.
    func release() {
        for _ in 0 ..< blocked {
            gate.signal()
        }
    }
}

func registerBlockingBenchmarks() {
    // The start latency of a side effect while others block their workers: one dispatch and a
    // wait for the body to begin per iteration; the percentiles are the latency distribution.
    for blocked in [8, 64] {
        let fixture = BlockedSideEffects(blocked: blocked)
        Benchmark(
            "Side effects: start latency while \(blocked) others block \(ops(1))",
            configuration: Configurations.latency(iterations: Scale.startLatencies),
            closure: { _ in fixture.dispatchAndWaitForStart() },
            setup: { fixture.block() },
            teardown: { fixture.release() }
        )
    }

    let count = Scale.sideEffectBurst
    Benchmark("Side effects: burst of no-op SideEffects (all awaited) \(ops(count))", configuration: Configurations.burst(iterations: 5)) { benchmark in
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
}
