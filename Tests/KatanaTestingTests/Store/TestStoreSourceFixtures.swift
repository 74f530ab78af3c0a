import Foundation
import Katana
import KatanaLegacy
import KatanaObservers

// Observer rules and Katana 2.x actions for the test-store suites: the sources of received items
// other than side effects.

/// Observer rules for the test store: each change of the counter is noted.
enum CountingRules {
    /// Notes `old->new` when the counter changes.
    static func notingCounterChanges() -> StoreInterceptor {
        ObserverInterceptor.observe(notificationCenter: NotificationCenter()) {
            OnChange(of: \Counting.counter) { old, new in Note(text: "\(old)->\(new)") }
        }
    }

    /// As ``notingCounterChanges()``, with a reaction that takes a little while (2 ms, on the
    /// rules' queue) before it makes its item.
    static func slowlyNotingCounterChanges() -> StoreInterceptor {
        ObserverInterceptor.observe(notificationCenter: NotificationCenter()) {
            OnChange(of: \Counting.counter) { old, new in
                Thread.sleep(forTimeInterval: 0.002)
                return Note(text: "\(old)->\(new)")
            }
        }
    }

    /// At the start, adds the dependencies' amount (through a side effect that reads them).
    static func addingTheDependencyAmountAtStart() -> StoreInterceptor {
        ObserverInterceptor.observe(notificationCenter: NotificationCenter()) {
            OnStart { AddTheDependencyAmount() }
        }
    }
}

/// A Katana 2.x action: appends to the log.
@available(*, deprecated, message: "Exercises the deprecated Action in a test store")
struct LegacyNote: Action {
    let text: String
    func updatedState(currentState: any State) -> any State {
        guard var state = currentState as? Counting else { return currentState }
        state.log.append(text)
        return state
    }
}

/// A Katana 2.x action with a side effect: adds `amount`, then its side effect dispatches a
/// ``LegacyNote`` with the counter it saw.
@available(*, deprecated, message: "Exercises the deprecated ActionWithSideEffect in a test store")
struct LegacyAddThenNote: ActionWithSideEffect {
    let amount: Int
    func updatedState(currentState: any State) -> any State {
        guard var state = currentState as? Counting else { return currentState }
        state.counter += amount
        return state
    }

    func sideEffect(
        currentState: any State,
        previousState: any State,
        dispatch: @escaping StoreDispatch,
        dependencies: any SideEffectDependencyContainer
    ) {
        let counter = (currentState as? Counting)?.counter ?? -1
        dispatch(LegacyNote(text: "saw \(counter)"))
    }
}
