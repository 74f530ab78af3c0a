import Foundation
import Katana
import KatanaObservers
import KatanaTestSupport
import Testing

/// The examples of docs/ObserverRules.md, compiled (and run) so a change that breaks them breaks the build.
enum ReadmeObservers {
    struct User: Equatable, Sendable { let name: String }

    struct AppState: State, Equatable {
        var user: User?
        var logLevel = "info"
        var configurationLoads = 0
        var syncing = false
        var cacheCleared = false
        var appliedLevel = ""
        var transitions = 0
    }

    final class AppDependencies: SideEffectDependencyContainer {
        init(dispatch: @escaping AnyDispatch, getState: @escaping GetState) {}
    }

    struct LoadConfiguration: StateUpdater, OnStartObserverDispatchable, NotificationObserverDispatchable {
        init() {}
        init?(notification: Notification) {}
        func updateState(_ state: inout AppState) { state.configurationLoads += 1 }
    }

    struct StartSync: StateUpdater, StateObserverDispatchable {
        init() {}
        init?(prevState: any State, currentState: any State) {}
        func updateState(_ state: inout AppState) { state.syncing = true }
    }

    struct Login: StateUpdater {
        let name: String
        func updateState(_ state: inout AppState) { state.user = User(name: name) }
    }

    struct Logout: StateUpdater {
        func updateState(_ state: inout AppState) { state.user = nil }
    }

    struct ClearCache: StateUpdater, DispatchObserverDispatchable {
        init() {}
        init?(dispatchedItem: any Dispatchable, prevState: any State, currentState: any State) {}
        func updateState(_ state: inout AppState) { state.cacheCleared = true }
    }

    struct ApplyLogLevel: StateUpdater {
        let level: String
        func updateState(_ state: inout AppState) { state.appliedLevel = level }
    }

    struct SetLogLevel: StateUpdater {
        let level: String
        func updateState(_ state: inout AppState) { state.logLevel = level }
    }

    struct LogTransition: StateUpdater {
        let old: AppState
        let new: AppState
        func updateState(_ state: inout AppState) { state.transitions += 1 }
    }

    enum Rules {
        static let logging = ObserverRules("logging") {
            OnChange(of: \AppState.logLevel) { _, level in ApplyLogLevel(level: level) }
        }
        static func all(verbose: Bool) -> ObserverRules {
            ObserverRules("all") {
                logging
                if verbose {
                    OnStateChange { (old: AppState, new: AppState) in
                    old.user != new.user ? LogTransition(old: old, new: new) : nil
                }
                }
            }
        }
    }
}

extension Notification.Name {
    static let reloadConfiguration = Notification.Name("reloadConfiguration")
}

@Suite struct ReadmeObserverExamplesTests {
    typealias AppState = ReadmeObservers.AppState
    typealias AppDependencies = ReadmeObservers.AppDependencies
    typealias LoadConfiguration = ReadmeObservers.LoadConfiguration
    typealias StartSync = ReadmeObservers.StartSync
    typealias Logout = ReadmeObservers.Logout
    typealias ClearCache = ReadmeObservers.ClearCache

    private func makeStore(_ observer: @escaping StoreInterceptor) -> Store<AppState, AppDependencies> {
        Store<AppState, AppDependencies>(
            interceptors: [observer],
            stateInitializer: { AppState() },
            configuration: .init(listenersAsyncProvider: DispatchQueue(label: "readme.listeners"))
        )
    }

    private func exercise(_ observer: @escaping StoreInterceptor, center: NotificationCenter) async throws {
        let store = makeStore(observer)
        try await store.waitUntil("the configuration to load at the start") { store.state.configurationLoads == 1 }
        try await store.dispatch(ReadmeObservers.Login(name: "ada")).settled()
        try await store.waitUntil("the sync to start") { store.state.syncing }
        try await store.dispatch(Logout()).settled()
        try await store.waitUntil("the cache to be cleared") { store.state.cacheCleared }
        center.post(name: .reloadConfiguration, object: nil)
        try await store.waitUntil("the configuration to load again") { store.state.configurationLoads == 2 }
    }

    @Test func katanaForm_runsAsWritten() async throws {
        let center = NotificationCenter()
        let observer = ObserverInterceptor.observe([
            .onStart([LoadConfiguration.self]),
            .onStateChange(ObserverInterceptor.ObserverType.typedStateChange { (old: AppState, new: AppState) in
                old.user == nil && new.user != nil
            }, [StartSync.self]),
            .onDispatch(Logout.self, [ClearCache.self]),
            .onNotification(.reloadConfiguration, [LoadConfiguration.self]),
        ], notificationCenter: center)
        try await exercise(observer, center: center)
    }

    @Test func declarativeForm_runsAsWritten() async throws {
        let center = NotificationCenter()
        let observer = ObserverInterceptor.observe(notificationCenter: center) {
            OnStart(LoadConfiguration.self)
            OnChange(of: \AppState.user) { old, new in
                old == nil && new != nil ? StartSync() : nil
            }
            OnDispatch(Logout.self) { _ in ClearCache() }
            OnNotification(.reloadConfiguration) { _ in LoadConfiguration() }
        }
        try await exercise(observer, center: center)
    }

    @Test func reusableGroups_composeWithControlFlow() async throws {
        let store = makeStore(ObserverInterceptor.observe { ReadmeObservers.Rules.all(verbose: true) })
        try await store.dispatch(ReadmeObservers.SetLogLevel(level: "debug")).settled()
        try await store.waitUntil("the level to be applied") { store.state.appliedLevel == "debug" }
        try await store.dispatch(ReadmeObservers.Login(name: "ada")).settled()
        // verbose: the login changed the user, and that transition is logged exactly once.
        try await store.waitUntil("the transition to be logged") { store.state.transitions == 1 }
        try await store.dispatch(ReadmeObservers.SetLogLevel(level: "info")).settled()
        try await store.waitUntil("the level to be applied") { store.state.appliedLevel == "info" }
        #expect(store.state.transitions == 1)
    }
}
