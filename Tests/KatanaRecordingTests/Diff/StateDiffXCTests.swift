import XCTest
import KatanaRecording

/// The diff's message as an XCTest user reads it.
final class StateDiffXCTests: XCTestCase {
    func test_diff_ofAChangedField_printsExpectedWithMinusAndActualWithPlus() {
        let diff = StateDiff.diff(expected: CounterState(counter: 2, name: "x"), actual: CounterState(counter: 1, name: "x"))
        XCTAssertEqual(diff, """
              CounterState(
            −   counter: 2,
            +   counter: 1,
                name: "x"
              )
            """)
    }

    func test_diff_ofEqualValues_isNil() {
        XCTAssertNil(StateDiff.diff(expected: AppState(), actual: AppState()))
    }

    func test_render_ofAnEnumWithPayload() {
        XCTAssertEqual(StateDiff.render(Load.failed(code: 3, reason: "no")), #".failed(code: 3, reason: "no")"#)
    }
}
