import Dispatch
import DocumentationSupport
import Foundation
import Katana
import KatanaLegacy
import KatanaObservers
import KatanaTestSupport
import Testing

// Every compiled snippet of Migration.md lives in this folder (this file and its siblings, one per part
// of the guide), one namespace and one test per entry, so a change to the API that breaks the guide
// breaks the build. `migrationGuide_snippetsAreTheCompiledCode` checks that each of the guide's code
// blocks is a copy of code in one of the folder's files.

/// What the guide's snippets share: the app's state, dependencies and (stubbed) backend.
enum Guide {
    struct AppState: State, Equatable {
        var todos: [String] = []
        var badge = 0
        var user: String?
        var isLoading = false
        var progress: Double = 0
        var error: String?
    }

    struct API: Sendable {
        func login(_ user: String) -> String { user.capitalized }
        func fetchTodos() throws -> [String] { ["Buy milk", "Call mum"] }
        func loadTodos() async throws -> [String] { ["Buy milk", "Call mum"] }
        func todosPromise() -> Promise<[String]> { Promise(resolved: ["Buy milk", "Call mum"]) }
    }

    final class AppDependencies: SideEffectDependencyContainer {
        let api = API()
        init(dispatch: @escaping AnyDispatch, getState: @escaping GetState) {}
    }

    /// Counts calls from any thread, one element per call: a test awaits a count with
    /// `waitForCount`.
    typealias Changes = LockedList<Void>

    static func configuration() -> Store<AppState, AppDependencies>.Configuration {
        .init(listenersAsyncProvider: DispatchQueue(label: "guide.listeners"))
    }

    static func store(interceptors: [StoreInterceptor] = []) -> Store<AppState, AppDependencies> {
        Store(interceptors: interceptors, stateInitializer: { AppState() }, configuration: configuration())
    }

}

extension LockedList where Element == Void {
    /// Counts one more call (the guide's snippets count their calls with `increment()`).
    func increment() {
        append(())
    }

    /// How many calls there have been.
    var value: Int {
        count
    }
}

// MARK: - Action → StateUpdater

extension Guide {
    enum ActionToStateUpdater {
        @available(*, deprecated, message: "The guide's Katana 2.x code, on purpose")
        enum Before {
            struct AddTodo: Action {
                let title: String
                func updatedState(currentState: State) -> State {
                    guard var state = currentState as? AppState else { return currentState }
                    state.todos.append(title)
                    return state
                }
            }
        }

        enum After {
            struct AddTodo: StateUpdater {
                let title: String
                func updateState(_ state: inout AppState) {
                    state.todos.append(title)
                }
            }
        }
    }
}

// MARK: - ActionWithSideEffect → StateUpdater + SideEffect

extension Guide {
    enum ActionWithSideEffectToSideEffect {
        @available(*, deprecated, message: "The guide's Katana 2.x code, on purpose")
        enum Before {
            struct LoggedIn: Action {
                let user: String
                func updatedState(currentState: State) -> State {
                    guard var state = currentState as? AppState else { return currentState }
                    state.user = user
                    state.isLoading = false
                    return state
                }
            }

            struct Login: ActionWithSideEffect {
                let user: String
                func updatedState(currentState: State) -> State {
                    guard var state = currentState as? AppState else { return currentState }
                    state.isLoading = true
                    return state
                }
                func sideEffect(
                    currentState: State,
                    previousState: State,
                    dispatch: @escaping StoreDispatch,
                    dependencies: SideEffectDependencyContainer
                ) {
                    guard let dependencies = dependencies as? AppDependencies else { return }
                    dispatch(LoggedIn(user: dependencies.api.login(user)))
                }
            }
        }

        enum After {
            struct StartLogin: StateUpdater {
                func updateState(_ state: inout AppState) {
                    state.isLoading = true
                }
            }

            struct LoggedIn: StateUpdater {
                let user: String
                func updateState(_ state: inout AppState) {
                    state.user = user
                    state.isLoading = false
                }
            }

            struct Login: SideEffect {
                let user: String
                func sideEffect(_ context: SideEffectContext<AppState, AppDependencies>) throws {
                    try context.dispatch(StartLogin()).wait(timeout: .seconds(10))
                    let name = context.dependencies.api.login(user)
                    try context.dispatch(LoggedIn(user: name)).wait(timeout: .seconds(10))
                }
            }

            struct LoginAsync: AsyncSideEffect {
                let user: String
                func sideEffect(_ context: SideEffectContext<AppState, AppDependencies>) async throws {
                    try await context.dispatch(StartLogin()).value
                    let name = context.dependencies.api.login(user)
                    try await context.dispatch(LoggedIn(user: name)).value
                }
            }
        }
    }
}

// MARK: - AsyncAction → AsyncSideEffect dispatching updaters

extension Guide {
    enum AsyncActionToAsyncSideEffect {
        @available(*, deprecated, message: "The guide's Katana 2.x code, on purpose")
        enum Before {
            struct LoadTodos: AsyncAction, ActionWithSideEffect {
                var state: AsyncActionState = .loading
                var todos: [String] = []
                var error: String?

                func updatedStateForLoading(currentState: State) -> State {
                    guard var state = currentState as? AppState else { return currentState }
                    state.isLoading = true
                    return state
                }
                func updatedStateForProgress(currentState: State) -> State {
                    guard var state = currentState as? AppState else { return currentState }
                    state.progress = self.state.progressPercentage ?? 0
                    return state
                }
                func updatedStateForCompleted(currentState: State) -> State {
                    guard var state = currentState as? AppState else { return currentState }
                    state.todos = todos
                    state.isLoading = false
                    return state
                }
                func updatedStateForFailed(currentState: State) -> State {
                    guard var state = currentState as? AppState else { return currentState }
                    state.error = error
                    state.isLoading = false
                    return state
                }
                func sideEffect(
                    currentState: State,
                    previousState: State,
                    dispatch: @escaping StoreDispatch,
                    dependencies: SideEffectDependencyContainer
                ) {
                    guard let dependencies = dependencies as? AppDependencies else { return }
                    dispatch(progressAction(percentage: 0.5))
                    do {
                        let todos = try dependencies.api.fetchTodos()
                        dispatch(completedAction { $0.todos = todos })
                    } catch {
                        dispatch(failedAction { $0.error = "\(error)" })
                    }
                }
            }
        }

        enum After {
            struct TodosLoading: StateUpdater {
                func updateState(_ state: inout AppState) { state.isLoading = true }
            }
            struct TodosProgress: StateUpdater {
                let percentage: Double
                func updateState(_ state: inout AppState) { state.progress = percentage }
            }
            struct TodosLoaded: StateUpdater {
                let todos: [String]
                func updateState(_ state: inout AppState) {
                    state.todos = todos
                    state.isLoading = false
                }
            }
            struct TodosFailed: StateUpdater {
                let error: String
                func updateState(_ state: inout AppState) {
                    state.error = error
                    state.isLoading = false
                }
            }

            struct LoadTodos: AsyncSideEffect {
                func sideEffect(_ context: SideEffectContext<AppState, AppDependencies>) async throws {
                    try await context.dispatch(TodosLoading()).value
                    try await context.dispatch(TodosProgress(percentage: 0.5)).value
                    do {
                        let todos = try await context.dependencies.api.loadTodos()
                        try await context.dispatch(TodosLoaded(todos: todos)).value
                    } catch {
                        try await context.dispatch(TodosFailed(error: "\(error)")).value
                    }
                }
            }
        }
    }
}

// MARK: - LinkeableAction / ActionLinker → ObserverInterceptor .onDispatch

extension Guide {
    enum LinkeableActionToOnDispatch {
        struct AddTodo: StateUpdater {
            let title: String
            func updateState(_ state: inout AppState) { state.todos.append(title) }
        }

        @available(*, deprecated, message: "The guide's Katana 2.x code, on purpose")
        enum Before {
            struct UpdateBadge: LinkeableAction {
                let count: Int
                init?(oldState: State, newState: State, sourceAction: Action) {
                    guard let newState = newState as? AppState else { return nil }
                    count = newState.todos.count
                }
                func updatedState(currentState: State) -> State {
                    guard var state = currentState as? AppState else { return currentState }
                    state.badge = count
                    return state
                }
            }

            static func makeStore() -> Store<AppState, AppDependencies> {
                let linker = ActionLinker.middleware(for: [ActionLinks(source: AddTodo.self, links: [UpdateBadge.self])])
                let store = Store<AppState, AppDependencies>(interceptors: [middlewareToInterceptor(linker)])
                return store
            }

            /// The source of a 2.x link is a 2.x action.
            struct AddTodo: Action {
                let title: String
                func updatedState(currentState: State) -> State {
                    guard var state = currentState as? AppState else { return currentState }
                    state.todos.append(title)
                    return state
                }
            }
        }

        enum AfterWithObservers {
            struct UpdateBadge: StateUpdater, DispatchObserverDispatchable {
                let count: Int
                init?(dispatchedItem: Dispatchable, prevState: State, currentState: State) {
                    guard let currentState = currentState as? AppState else { return nil }
                    count = currentState.todos.count
                }
                func updateState(_ state: inout AppState) { state.badge = count }
            }

            static func makeStore() -> Store<AppState, AppDependencies> {
                let observer = ObserverInterceptor.observe([
                    .onDispatch(AddTodo.self, [UpdateBadge.self]),
                ])
                let store = Store<AppState, AppDependencies>(interceptors: [observer])
                return store
            }

            static func makeDeclarativeStore() -> Store<AppState, AppDependencies> {
                let observer = ObserverInterceptor.observe {
                    OnChange(of: \AppState.todos) { _, todos in SetBadge(count: todos.count) }
                }
                let store = Store<AppState, AppDependencies>(interceptors: [observer])
                return store
            }
        }

        struct SetBadge: StateUpdater {
            let count: Int
            func updateState(_ state: inout AppState) { state.badge = count }
        }

        enum After {
            static func makeStore() -> Store<AppState, AppDependencies> {
                let updateBadge: StoreInterceptor = { context in
                    { next in
                        { item in
                            try next(item)
                            if item is AddTodo, let state = context.getAnyState() as? AppState {
                                context.dispatch(SetBadge(count: state.todos.count))
                            }
                        }
                    }
                }
                let store = Store<AppState, AppDependencies>(interceptors: [updateBadge])
                return store
            }
        }
    }
}

// MARK: - ActionLogger → DispatchableLogger

extension Guide {
    enum ActionLoggerToDispatchableLogger {
        struct AddTodo: StateUpdater {
            let title: String
            func updateState(_ state: inout AppState) { state.todos.append(title) }
        }

        @available(*, deprecated, message: "The guide's Katana 2.x code, on purpose")
        static func before() -> Store<AppState, AppDependencies> {
            let store = Store<AppState, AppDependencies>(
                middleware: [ActionLogger.middleware(blackList: [AddTodo.self])],
                dependencies: AppDependencies.self
            )
            return store
        }

        static func after() -> Store<AppState, AppDependencies> {
            let store = Store<AppState, AppDependencies>(
                interceptors: [DispatchableLogger.interceptor(blackList: [AddTodo.self])]
            )
            return store
        }
    }
}

// MARK: - StoreMiddleware → StoreInterceptor, and the middlewareToInterceptor bridge

extension Guide {
    enum MiddlewareToInterceptor {
        // The guide's own types: logging in goes through `Login`'s `StartLogin` and `LoggedIn`,
        // which the middleware must let through.
        typealias AddTodo = Guide.ActionToStateUpdater.After.AddTodo
        typealias Login = Guide.ActionWithSideEffectToSideEffect.After.Login

        @available(*, deprecated, message: "The guide's Katana 2.x code, on purpose")
        static let legacyBlockWhenLoggedOut: StoreMiddleware = { getState, dispatch in
            { next in
                { item in
                    if item is AddTodo, let state = getState() as? AppState, state.user == nil { return }
                    next(item)
                }
            }
        }

        static let blockWhenLoggedOut: StoreInterceptor = { context in
            { next in
                { item in
                    if item is AddTodo, let state = context.getAnyState() as? AppState, state.user == nil { return }
                    try next(item)
                }
            }
        }

        @available(*, deprecated, message: "The guide's Katana 2.x code, on purpose")
        static func bridged() -> Store<AppState, AppDependencies> {
            let store = Store<AppState, AppDependencies>(interceptors: [
                middlewareToInterceptor(legacyBlockWhenLoggedOut),
                DispatchableLogger.interceptor(),
            ])
            return store
        }
    }
}

// MARK: - Store(middleware:dependencies:) → Store(interceptors:stateInitializer:)

extension Guide {
    enum StoreInitialiser {
        @available(*, deprecated, message: "The guide's Katana 2.x code, on purpose")
        static func before(middleware: [StoreMiddleware]) -> Store<AppState, AppDependencies> {
            let store = Store<AppState, AppDependencies>(
                middleware: middleware,
                dependencies: AppDependencies.self,
                stateInitializer: { AppState(todos: ["restored"]) }
            )
            return store
        }

        static func after(interceptors: [StoreInterceptor]) -> Store<AppState, AppDependencies> {
            let store = Store<AppState, AppDependencies>(
                interceptors: interceptors,
                stateInitializer: { AppState(todos: ["restored"]) }
            )
            return store
        }
    }
}

// MARK: - Dependency container: 2.x initialiser → SideEffectDependencyContainer

extension Guide {
    enum DependencyContainer {
        @available(*, deprecated, message: "The guide's Katana 2.x code, on purpose")
        enum Before {
            final class AppDependencies: LegacySideEffectDependencyContainer {
                let dispatch: StoreDispatch
                let getState: GetState
                required init(dispatch: @escaping StoreDispatch, getState: @escaping GetState) {
                    self.dispatch = dispatch
                    self.getState = getState
                }
            }
        }

        enum After {
            final class AppDependencies: SideEffectDependencyContainer {
                let dispatch: AnyDispatch
                let getState: GetState
                init(dispatch: @escaping AnyDispatch, getState: @escaping GetState) {
                    self.dispatch = dispatch
                    self.getState = getState
                }
            }
        }
    }
}

// MARK: - Hydra idioms

extension Guide {
    enum HydraAwait {
        struct SetTodos: StateUpdater {
            let todos: [String]
            func updateState(_ state: inout AppState) { state.todos = todos }
        }

        struct Refresh: SideEffect {
            func sideEffect(_ context: SideEffectContext<AppState, AppDependencies>) throws {
                let todos = try context.dependencies.api.todosPromise().wait(timeout: .seconds(10))
                try context.dispatch(SetTodos(todos: todos)).wait(timeout: .seconds(10))
            }
        }

        struct RefreshAsync: AsyncSideEffect {
            func sideEffect(_ context: SideEffectContext<AppState, AppDependencies>) async throws {
                let todos = try await context.dependencies.api.todosPromise().value
                try await context.dispatch(SetTodos(todos: todos)).value
            }
        }
    }

    enum HydraPromiseBody {
        static func answer() -> Promise<Int> {
            Promise<Int>(in: DispatchQueue.global(qos: .background)) { resolve, reject in
                resolve(42)
            }
        }
    }
}

// MARK: - The tests, one per entry

@Suite struct MigrationGuideTests {
    typealias AppState = Guide.AppState
    typealias AppDependencies = Guide.AppDependencies
    typealias AddTodo = Guide.ActionToStateUpdater.After.AddTodo

    @available(*, deprecated, message: "Exercises the guide's deprecated 2.x code")
    @Test func actionToStateUpdater() async throws {
        let store = Guide.store()
        try await store.dispatch(Guide.ActionToStateUpdater.Before.AddTodo(title: "before")).settled()
        try await store.dispatch(AddTodo(title: "after")).settled()
        #expect(store.state.todos == ["before", "after"])
    }

    @available(*, deprecated, message: "Exercises the guide's deprecated 2.x code")
    @Test func actionWithSideEffectToStateUpdaterAndSideEffect() async throws {
        typealias Entry = Guide.ActionWithSideEffectToSideEffect
        let before = Guide.store()
        before.dispatch(Entry.Before.Login(user: "ada"))
        try await before.waitUntil("the 2.x login") { before.state.user == "Ada" && !before.state.isLoading }

        let after = Guide.store()
        try await after.dispatch(Entry.After.Login(user: "grace")).settled()
        #expect(after.state.user == "Grace")
        try await after.dispatch(Entry.After.LoginAsync(user: "linus")).value
        #expect(after.state.user == "Linus")
        #expect(after.state.isLoading == false)
    }

    @available(*, deprecated, message: "Exercises the guide's deprecated 2.x code")
    @Test func asyncActionToAsyncSideEffect() async throws {
        typealias Entry = Guide.AsyncActionToAsyncSideEffect
        let before = Guide.store()
        before.dispatch(Entry.Before.LoadTodos())
        try await before.waitUntil("the 2.x load") { before.state.todos == ["Buy milk", "Call mum"] }
        #expect(before.state.progress == 0.5)

        let after = Guide.store()
        try await after.dispatch(Entry.After.LoadTodos()).value
        #expect(after.state.todos == ["Buy milk", "Call mum"])
        #expect(after.state.progress == 0.5)
        #expect(after.state.isLoading == false)
        #expect(before.state == after.state)
    }

    @available(*, deprecated, message: "Exercises the guide's deprecated 2.x code")
    @Test func linkeableActionToOnDispatch() async throws {
        typealias Entry = Guide.LinkeableActionToOnDispatch
        let before = Entry.Before.makeStore()
        before.dispatch(Entry.Before.AddTodo(title: "one"))
        try await before.waitUntil("the linked badge") { before.state.badge == 1 }

        for after in [Entry.After.makeStore(), Entry.AfterWithObservers.makeStore()] {
            after.dispatch(Entry.AddTodo(title: "one"))
            after.dispatch(Entry.AddTodo(title: "two"))
            try await after.waitUntil("the badge") { after.state.badge == 2 }
        }
    }

    @Test func linkeableActionToDeclarativeRule() async throws {
        let store = Guide.LinkeableActionToOnDispatch.AfterWithObservers.makeDeclarativeStore()
        store.dispatch(Guide.LinkeableActionToOnDispatch.AddTodo(title: "one"))
        store.dispatch(Guide.LinkeableActionToOnDispatch.AddTodo(title: "two"))
        try await store.waitUntil("the badge") { store.state.badge == 2 }
    }

    @available(*, deprecated, message: "Exercises the guide's deprecated 2.x code")
    @Test func actionLoggerToDispatchableLogger() async throws {
        typealias Entry = Guide.ActionLoggerToDispatchableLogger
        for store in [Entry.before(), Entry.after()] {
            try await store.dispatch(Entry.AddTodo(title: "quiet")).settled()
            #expect(store.state.todos == ["quiet"])
        }
    }

    @Test func storeMiddlewareToStoreInterceptor() async throws {
        typealias Entry = Guide.MiddlewareToInterceptor
        let modern = Guide.store(interceptors: [Entry.blockWhenLoggedOut])
        try await modern.dispatch(Entry.AddTodo(title: "blocked")).settled()
        try await modern.dispatch(Entry.Login(user: "ada")).settled()
        #expect(modern.state.user == "Ada")
        try await modern.dispatch(Entry.AddTodo(title: "allowed")).settled()
        #expect(modern.state.todos == ["allowed"])
    }

    @available(*, deprecated, message: "Exercises the guide's deprecated 2.x code")
    @Test func middlewareToInterceptorBridge() async throws {
        typealias Entry = Guide.MiddlewareToInterceptor
        let bridged = Entry.bridged()
        try await bridged.dispatch(Entry.AddTodo(title: "blocked")).settled()
        try await bridged.dispatch(Entry.Login(user: "ada")).settled()
        #expect(bridged.state.user == "Ada")
        try await bridged.dispatch(Entry.AddTodo(title: "allowed")).settled()
        #expect(bridged.state.todos == ["allowed"])
    }

    @available(*, deprecated, message: "Exercises the guide's deprecated 2.x code")
    @Test func storeInitialiserWithMiddleware() async throws {
        typealias Entry = Guide.StoreInitialiser
        let before = Entry.before(middleware: [Guide.MiddlewareToInterceptor.legacyBlockWhenLoggedOut])
        let after = Entry.after(interceptors: [Guide.MiddlewareToInterceptor.blockWhenLoggedOut])
        for store in [before, after] {
            try await store.dispatch(Guide.MiddlewareToInterceptor.AddTodo(title: "blocked")).settled()
            #expect(store.state.todos == ["restored"])
        }
    }

    @available(*, deprecated, message: "Exercises the guide's deprecated 2.x code")
    @Test func zeroArgumentListener() async throws {
        let store = Guide.store()
        let changes = Guide.Changes()
        let unsubscribe = store.addListener { changes.increment() }
        let todoChanges = Guide.Changes()
        let unsubscribeTyped = store.addListener { old, new in
            if old.todos != new.todos { todoChanges.increment() }
        }
        try await store.dispatch(AddTodo(title: "x")).settled()
        try await changes.waitForCount(1)
        try await todoChanges.waitForCount(1)
        #expect(changes.value == 1 && todoChanges.value == 1)
        unsubscribe()
        unsubscribeTyped()
    }

    @available(*, deprecated, message: "Exercises the guide's deprecated 2.x code")
    @Test func dependencyContainerInitialiser() async throws {
        typealias Entry = Guide.DependencyContainer
        let before = Store<AppState, Entry.Before.AppDependencies>()
        before.dependencies.dispatch(Guide.ActionToStateUpdater.Before.AddTodo(title: "legacy"))
        try await before.waitUntil("the 2.x dispatch") { before.state.todos == ["legacy"] }

        let after = Store<AppState, Entry.After.AppDependencies>()
        try await after.dependencies.dispatch(AddTodo(title: "modern")).settled()
        #expect((after.dependencies.getState() as? AppState)?.todos == ["modern"])
    }

    @available(*, deprecated, message: "Exercises the guide's deprecated 2.x code")
    @Test func storeGenericParameters() throws {
        let store = Store<AppState, AppDependencies>(middleware: [], dependencies: AppDependencies.self)
        let plain = Store<AppState, EmptySideEffectDependencyContainer>()
        #expect(store.isReady && plain.isReady)
    }

    @Test func anyStoreDispatch() async throws {
        let anyStore: any AnyStore = Guide.store()
        // The guide's replacement blocks: it runs on a thread of its own.
        _ = try await onThreadOfItsOwn("the guide's anyDispatch") {
            try anyStore.anyDispatch(AddTodo(title: "x")).wait(timeout: .seconds(10))
        }
        #expect((anyStore.anyState as? AppState)?.todos == ["x"])
    }

    @Test func hydraAwait() async throws {
        let store = Guide.store()
        try await store.dispatch(Guide.HydraAwait.Refresh()).settled()
        #expect(store.state.todos == ["Buy milk", "Call mum"])
        let other = Guide.store()
        try await other.dispatch(Guide.HydraAwait.RefreshAsync()).value
        #expect(other.state.todos == ["Buy milk", "Call mum"])
    }

    @Test func thenInMain() async throws {
        let store = Guide.store()
        let rendered = Guide.Changes()
        // Compiles as in Katana 6: `.main` is `DispatchQueue.main` (it runs once the main queue is serviced).
        store.dispatch(AddTodo(title: "x")).then(in: DispatchQueue.main) { _ in
            rendered.increment()
        }
        store.dispatch(AddTodo(title: "y")).then(in: .main) { _ in
            rendered.increment()
        }
        // A queue of your own behaves the same on every platform.
        let ui = DispatchQueue(label: "app.ui")
        let done = store.dispatch(AddTodo(title: "z")).then(in: ui) { _ in
            rendered.increment()
        }
        try await done.settled()
        #expect(store.state.todos == ["x", "y", "z"])
    }

    @Test func promiseVoidFromDispatch() async throws {
        let store = Guide.store()
        let promise: Promise<Void> = store.dispatch(AddTodo(title: "x"))
        let counted = promise
            .then { _ in store.state.todos.count }
            .catch { error in print("failed: \(error)") }
        #expect(try await counted.settled() == 1)
    }

    @Test func hydraPromiseBody() async throws {
        #expect(try await Guide.HydraPromiseBody.answer().settled() == 42)
    }

    @Test func asyncProviderToExecutor() throws {
        let listeners: any Executor = DispatchQueue(label: "app.listeners")
        let initializer: any Executor = ImmediateExecutor()
        let store = Store<AppState, AppDependencies>(
            interceptors: [],
            stateInitializer: { AppState() },
            configuration: .init(stateInitializerAsyncProvider: initializer, listenersAsyncProvider: listeners)
        )
        #expect(store.isReady)
    }

    @Test func listenersOnTheMainQueue() async throws {
        let store = Store<AppState, AppDependencies>(
            interceptors: [],
            stateInitializer: { AppState() },
            configuration: .init(listenersAsyncProvider: DispatchQueue(label: "app.listeners"))
        )
        let changes = Guide.Changes()
        store.addListener { _, _ in changes.increment() }
        try await store.dispatch(AddTodo(title: "x")).settled()
        try await changes.waitForCount(1)
        #expect(changes.value == 1)
    }

    /// "Setting up": the manifest snippet names the products by the dependency's identity (the
    /// last path component of its path or URL), which SwiftPM requires, not by the manifest's name.
    @Test func settingUp_manifestNamesTheDependencyByItsIdentity() throws {
        let manifest = """
        // Package.swift of your app
        dependencies: [
            .package(path: "../katana-linux"),
        ],
        targets: [
            .target(name: "App", dependencies: [
                .product(name: "Katana", package: "katana-linux"),
                .product(name: "KatanaLegacy", package: "katana-linux"),
            ]),
        ]
        """
        let path = try #require(manifest.firstMatch(of: /\.package\(path: "([^"]+)"\)/)?.output.1)
        let identity = String(path.split(separator: "/").last ?? "").lowercased()
        let named = manifest.matches(of: /package: "([^"]+)"\)/).map { String($0.output.1).lowercased() }
        #expect(named.count == 2)
        #expect(named.allSatisfy { $0 == identity })
        #expect(identity != "katana", "the snippet must show a name other than the manifest's")
    }

    /// Every code block of Migration.md is either marked as code that does not compile with this package
    /// (Katana 2.x, Katana 6/Hydra, KatanaObservers) or appears, line for line, in one of this folder's files.
    @Test func migrationGuide_snippetsAreTheCompiledCode() throws {
        let here = URL(fileURLWithPath: #filePath)
        let root = here.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let guide = try String(contentsOf: root.appendingPathComponent("Migration.md"), encoding: .utf8)
        // The guide's snippets live in this folder's files, one file per part of the guide.
        let folder = here.deletingLastPathComponent()
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path)
            .filter { $0.hasSuffix(".swift") }
            .sorted()
        let sources = try files.map { normalised(try String(contentsOf: folder.appendingPathComponent($0), encoding: .utf8)) }
        let blocks = MarkdownDocument.swiftBlocks(in: guide)
        #expect(blocks.count >= 20)
        for block in blocks {
            guard let first = block.first(where: { !$0.trimmingCharacters(in: .whitespaces).isEmpty }) else { continue }
            if first.contains("Katana 2.x:") || first.contains("Katana 6:") {
                continue
            }
            let lines = normalised(block.joined(separator: "\n"))
            let found = sources.contains { contains($0, lines) }
            #expect(found, "Migration.md block not found in any of \(files):\n\(block.joined(separator: "\n"))")
        }
    }

    private func normalised(_ text: String) -> [String] {
        text.components(separatedBy: "\n")
            .map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty }
    }

    private func contains(_ haystack: [String], _ needle: [String]) -> Bool {
        guard !needle.isEmpty, needle.count <= haystack.count else { return needle.isEmpty }
        for start in 0...(haystack.count - needle.count) where haystack[start] == needle[0] {
            if Array(haystack[start..<(start + needle.count)]) == needle {
                return true
            }
        }
        return false
    }
}
