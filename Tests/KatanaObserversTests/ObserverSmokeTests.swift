import Foundation
import Katana
import KatanaObservers
import Testing

private struct AppState: State, Equatable {
    var level = "info"
    var ticks = 0
    var started = false
}

private final class Deps: SideEffectDependencyContainer {
    init(dispatch: @escaping AnyDispatch, getState: @escaping GetState) {}
}

private struct MarkStarted: StateUpdater, OnStartObserverDispatchable {
    init() {}
    func updateState(_ state: inout AppState) { state.started = true }
}

private struct SetLevel: StateUpdater {
    let level: String
    func updateState(_ state: inout AppState) { state.level = level }
}

private struct Tick: StateUpdater {
    func updateState(_ state: inout AppState) { state.ticks += 1 }
}

@Suite struct ObserverSmokeTests {
    @Test func declarativeRules_fireOnStartAndOnChange() throws {
        let center = NotificationCenter()
        let store = Store<AppState, Deps>(
            interceptors: [
                ObserverInterceptor.observe(notificationCenter: center) {
                    OnStart(MarkStarted.self)
                    OnChange(of: \AppState.level) { _, _ in Tick() }
                },
            ],
            stateInitializer: { AppState() },
            configuration: .init(listenersAsyncProvider: DispatchQueue(label: "l"))
        )
        try store.dispatch(SetLevel(level: "debug")).wait(timeout: .seconds(5))
        try store.dispatch(SetLevel(level: "debug")).wait(timeout: .seconds(5))
        let deadline = ContinuousClock.now + .seconds(5)
        while store.state.ticks < 1 || !store.state.started, ContinuousClock.now < deadline { usleep(1000) }
        usleep(20_000)
        #expect(store.state.started)
        #expect(store.state.ticks == 1)
    }
}
