import Benchmark
import Katana
import KatanaBenchmarkSupport
import KatanaRecording

/// What recording into memory costs per updater: the same burst of increments into a store
/// without interceptors and into one whose only interceptor is a `StoreRecorder` into a
/// `FlightRecorder` of 10,000 (which keeps each item and the state after it as values, evicting
/// the oldest once full, and encodes nothing), on `BenchState` (816 bytes, the state of the other
/// throughput benchmarks) and on `SmallState` (24 bytes). Run the pairs together
/// (`--filter "Recording.*"`): the requirement is that a recorded burst costs at most twice the
/// plain one.
func registerRecordingBenchmarks() {
    let count = Scale.dispatches

    Benchmark("Recording: updaters, no interceptors \(ops(count))", configuration: Configurations.burst()) { benchmark in
        dispatchBurst(to: BenchStore(), count: count, benchmark: benchmark)
    }

    Benchmark("Recording: updaters into a flight recorder of 10,000 \(ops(count))", configuration: Configurations.burst()) { benchmark in
        // A recorder records one store: each iteration gets a store and a flight recorder of its own.
        let flightRecorder = FlightRecorder<BenchState>(capacity: flightRecorderCapacity)
        dispatchBurst(to: BenchStore(interceptors: Interceptors { StoreRecorder(to: flightRecorder) }), count: count, benchmark: benchmark)
        checkOldestKept(flightRecorder.stateBeforeFirstItem?.counter, count: count)
    }

    Benchmark("Recording: updaters on a 24-byte state, no interceptors \(ops(count))", configuration: Configurations.burst()) { benchmark in
        dispatchSmallBurst(to: SmallStore(), count: count, benchmark: benchmark)
    }

    Benchmark("Recording: updaters on a 24-byte state into a flight recorder of 10,000 \(ops(count))", configuration: Configurations.burst()) { benchmark in
        let flightRecorder = FlightRecorder<SmallState>(capacity: flightRecorderCapacity)
        dispatchSmallBurst(to: SmallStore(interceptors: Interceptors { StoreRecorder(to: flightRecorder) }), count: count, benchmark: benchmark)
        checkOldestKept(flightRecorder.stateBeforeFirstItem?.counter, count: count)
    }
}

/// The flight recorders' capacity: a burst of `Scale.dispatches` fills it and then evicts.
private let flightRecorderCapacity = 10_000

/// Checks that a flight recorder that saw `count` increments from 0 keeps the last
/// `flightRecorderCapacity`: the state before the oldest kept one has the counter at the rest.
private func checkOldestKept(_ counterBeforeOldest: Int?, count: Int) {
    let expected = max(0, count - flightRecorderCapacity)
    check(counterBeforeOldest == expected, "the state before the oldest kept item has counter \(String(describing: counterBeforeOldest)), expected \(expected)")
}

/// `dispatchBurst(to:count:benchmark:)` for a store of `SmallState`.
private func dispatchSmallBurst(to store: SmallStore, count: Int, benchmark: Benchmark) {
    let before = store.state.counter
    benchmark.startMeasurement()
    var last: Promise<Void>?
    for _ in 0 ..< count {
        last = store.dispatch(IncrementSmall())
    }
    last?.settled("last updater of the burst")
    benchmark.stopMeasurement()
    check(store.state.counter == before + count, "counter is \(store.state.counter), expected \(before + count)")
}
