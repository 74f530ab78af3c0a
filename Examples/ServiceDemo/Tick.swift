import Katana
import KatanaLegacy

/// Counts one heartbeat. This is a Katana 2.x `Action`, left as it was to show that legacy items run
/// in the same store as the modern ones, in order.
///
/// To modernise it, follow "Action → StateUpdater" in Migration.md: conform to `StateUpdater` and
/// write `func updateState(_ state: inout DemoState) { state.ticks += 1 }`.
struct Tick: Codable {}

@available(*, deprecated, message: "A Katana 2.x action kept on purpose; see Migration.md, 'Action → StateUpdater'")
extension Tick: Action {
    func updatedState(currentState: State) -> State {
        guard var state = currentState as? DemoState else { return currentState }
        state.ticks += 1
        return state
    }
}
