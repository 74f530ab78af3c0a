import Katana
import KatanaTesting
import Testing

/// A state whose `==` is not what its drawing shows: `measured` is a `Double` (NaN is not equal to
/// itself, yet draws the same), and `cache` is left out of `==` on purpose.
struct Measured: State, Equatable {
    var measured = 0.0
    var cache: [String] = []

    static func == (lhs: Measured, rhs: Measured) -> Bool {
        lhs.measured == rhs.measured
    }
}

/// Sets the measurement.
struct Measure: StateUpdater {
    let value: Double
    func updateState(_ state: inout Measured) {
        state.measured = value
    }
}

/// Fills the cache, which `==` does not look at.
struct FillCache: StateUpdater {
    func updateState(_ state: inout Measured) {
        state.cache = ["warm"]
    }
}

func makeMeasuredStore(_ recorder: TestFailureRecorder) -> TestStore<Measured, EmptySideEffectDependencyContainer> {
    TestStore(initialState: Measured(), reporter: recorder.reporter)
}

let notEqualButDrawnTheSame = """
    State after sending KatanaTestingTests.Measure is not == to the expectation, though the two draw the same:
    Measured(
      measured: nan,
      cache: []
    )
    """

/// An `Equatable` state is checked with its own `==`; the drawing is only for the message.
@Suite struct TestStoreEqualityTests {
    @Test func send_stateEqualByItsEquals_passesEvenWhenTheDrawingsDiffer() async {
        let recorder = TestFailureRecorder()
        let store = makeMeasuredStore(recorder)
        await store.send(FillCache())   // the cache changed, and == says nothing did
        await store.finish()
        #expect(recorder.messages == [])
        #expect(store.state.cache == ["warm"])
    }

    @Test func send_stateNotEqualByItsEqualsButDrawnTheSame_failsWithTheDrawing() async {
        let recorder = TestFailureRecorder()
        let store = makeMeasuredStore(recorder)
        await store.send(Measure(value: .nan)) { $0.measured = .nan }
        await store.finish()
        #expect(recorder.messages == [notEqualButDrawnTheSame])
    }

    @Test func send_stateNotEqual_failsWithTheDiff() async {
        let recorder = TestFailureRecorder()
        let store = makeMeasuredStore(recorder)
        await store.send(Measure(value: 2.5)) { $0.measured = 3 }
        await store.finish()
        #expect(recorder.messages == [
            """
            State after sending KatanaTestingTests.Measure differs from the expectation (− expected, + actual):
              Measured(
            −   measured: 3.0,
            +   measured: 2.5,
                cache: []
              )
            """,
        ])
    }
}
