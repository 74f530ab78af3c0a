import Benchmark
import Katana
import KatanaBenchmarkSupport
import KatanaTesting

/// KatanaTesting's test store: what a test of many steps costs. Each `send` dispatches, waits for
/// the store to settle and compares the whole state with the expectation — by `==` for an
/// `Equatable` state, by drawing both states otherwise (`BenchState`: 200 fields and a
/// 100-element array). The test store reports to a recorder, and the run fails if it reported
/// anything.
func registerTestingBenchmarks() {
    let count = Scale.count(1_000, smoke: 10)
    Benchmark("TestStore: send with a state check, Equatable state \(ops(count))", configuration: Configurations.burst()) { benchmark in
        let recorder = TestFailureRecorder()
        let store = TestStore<TestedState, EmptySideEffectDependencyContainer>(initialState: TestedState(), reporter: recorder.reporter)
        benchmark.startMeasurement()
        for expected in 1 ... count {
            await store.send(TestedIncrement()) { $0.counter = expected }
        }
        benchmark.stopMeasurement()
        await store.finish()
        check(store.state.counter == count, "TestStore sends: counter \(store.state.counter), expected \(count)")
        check(recorder.messages.isEmpty, "TestStore sends reported failures: \(recorder.messages)")
    }

    Benchmark("TestStore: send with a state check, state compared by drawing \(ops(count))", configuration: Configurations.burst()) { benchmark in
        let recorder = TestFailureRecorder()
        let store = TestStore<BenchState, EmptySideEffectDependencyContainer>(initialState: BenchState(), reporter: recorder.reporter)
        benchmark.startMeasurement()
        for expected in 1 ... count {
            await store.send(Increment()) { $0.counter = expected }
        }
        benchmark.stopMeasurement()
        await store.finish()
        check(store.state.counter == count, "TestStore sends (drawn): counter \(store.state.counter), expected \(count)")
        check(recorder.messages.isEmpty, "TestStore sends (drawn) reported failures: \(recorder.messages)")
    }
}

/// An `Equatable` state of a typical feature's size: a counter, a list and a few fields.
struct TestedState: State, Equatable {
    var counter = 0
    var items = Array(0 ..< 100)
    var title = "Inbox"
    var isLoading = false
    var selection: Int?
}

/// Bumps the counter of ``TestedState``.
struct TestedIncrement: StateUpdater {
    func updateState(_ state: inout TestedState) {
        state.counter += 1
    }
}
