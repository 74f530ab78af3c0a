import Katana
import KatanaLegacy
import KatanaTestSupport
import Testing

/// A 2.x async action: loading asks the backend (in its side effect) and dispatches completion or failure.
@available(*, deprecated, message: "Exercises the deprecated AsyncAction")
struct DownloadItems: AsyncAction, ActionWithSideEffect {
    var state: AsyncActionState = .loading
    var query: String
    var result: [String] = []
    var failure: String?
    var shouldFail = false
    let sideEffectRuns: LockedList<String>

    init(query: String, shouldFail: Bool = false, sideEffectRuns: LockedList<String>) {
        self.query = query
        self.shouldFail = shouldFail
        self.sideEffectRuns = sideEffectRuns
    }

    func updatedStateForLoading(currentState: State) -> State {
        guard var state = currentState as? LegacyState else { return currentState }
        state.download.status = "loading \(query)"
        state.download.progress = 0
        return state
    }

    func updatedStateForProgress(currentState: State) -> State {
        guard var state = currentState as? LegacyState, let percentage = self.state.progressPercentage else {
            return currentState
        }
        state.download.progress = percentage
        return state
    }

    func updatedStateForCompleted(currentState: State) -> State {
        guard var state = currentState as? LegacyState else { return currentState }
        state.download.status = "completed \(query)"
        state.download.items = result
        state.download.progress = 1
        return state
    }

    func updatedStateForFailed(currentState: State) -> State {
        guard var state = currentState as? LegacyState else { return currentState }
        state.download.status = "failed \(query)"
        state.download.error = failure
        return state
    }

    func sideEffect(currentState: State, previousState: State, dispatch: @escaping StoreDispatch, dependencies: SideEffectDependencyContainer) {
        sideEffectRuns.append(self.state.debugDescription)
        guard let dependencies = dependencies as? LegacyDependencies else { return }
        dispatch(progressAction(percentage: 0.5))
        if shouldFail {
            dispatch(failedAction { $0.failure = "backend unavailable" })
        } else {
            let found = dependencies.backend.items.filter { $0.hasPrefix(query) }
            dispatch(completedAction { $0.result = found })
        }
    }
}

/// An async action with no progress function of its own and no side effect.
@available(*, deprecated, message: "Exercises the deprecated AsyncAction")
struct Toggle: AsyncAction {
    var state: AsyncActionState = .loading

    func updatedStateForLoading(currentState: State) -> State { mark(currentState, "loading") }
    func updatedStateForCompleted(currentState: State) -> State { mark(currentState, "completed") }
    func updatedStateForFailed(currentState: State) -> State { mark(currentState, "failed") }

    private func mark(_ state: State, _ tag: String) -> State {
        guard var state = state as? LegacyState else { return state }
        state.log.append(tag)
        return state
    }
}

@Suite struct AsyncActionTests {
    @available(*, deprecated, message: "Exercises the deprecated AsyncAction")
    @Test func asyncAction_loadingRunsTheSideEffect_whichDispatchesProgressAndCompletion() async throws {
        let store = makeStore()
        let runs = LockedList<String>()
        let progress = LockedList<Double>()
        store.addListener { old, new in
            if old.download.progress != new.download.progress { progress.append(new.download.progress) }
        }
        try await store.dispatch(DownloadItems(query: "al", sideEffectRuns: runs)).settled()
        try await store.waitUntil { store.state.download.status == "completed al" }
        #expect(store.state.download.items == ["alpha"])
        try await progress.waitUntil { $0 == [0.5, 1] }
        // Only the loading dispatch ran the side effect; progress and completed did not.
        try await settle(store)
        #expect(runs.all == ["loading"])
    }

    @available(*, deprecated, message: "Exercises the deprecated AsyncAction")
    @Test func asyncAction_failure_usesTheFailedUpdate() async throws {
        let store = makeStore()
        let runs = LockedList<String>()
        store.dispatch(DownloadItems(query: "x", shouldFail: true, sideEffectRuns: runs))
        try await store.waitUntil { store.state.download.status == "failed x" }
        #expect(store.state.download.error == "backend unavailable")
        #expect(runs.all == ["loading"])
    }

    @available(*, deprecated, message: "Exercises the deprecated AsyncAction")
    @Test func asyncAction_sideEffectRunsOnlyWhenDispatchedInTheLoadingState() async throws {
        let store = makeStore()
        let runs = LockedList<String>()
        let loading = DownloadItems(query: "zzz", sideEffectRuns: runs)
        // Dispatch the non-loading phases directly: none of them may run the side effect.
        try await store.dispatch(loading.progressAction(percentage: 0.25)).settled()
        try await store.dispatch(loading.completedAction()).settled()
        try await store.dispatch(loading.failedAction()).settled()
        #expect(store.state.download.status == "failed zzz")
        // Then the loading phase: exactly one run (its own completion is dispatched by it).
        try await store.dispatch(loading).settled()
        try await store.waitUntil { store.state.download.status == "completed zzz" }
        try await settle(store)
        #expect(runs.all == ["loading"])
    }

    @available(*, deprecated, message: "Exercises the deprecated AsyncAction")
    @Test func asyncAction_eachStateUsesItsOwnUpdate_andProgressDefaultsToNoChange() async throws {
        let store = makeStore()
        let toggle = Toggle()
        try await store.dispatch(toggle).settled()
        try await store.dispatch(toggle.progressAction(percentage: 0.3)).settled()
        try await store.dispatch(toggle.completedAction()).settled()
        try await store.dispatch(toggle.failedAction()).settled()
        #expect(store.state.log == ["loading", "completed", "failed"])
    }

    @available(*, deprecated, message: "Exercises the deprecated AsyncAction")
    @Test func asyncAction_derivedActions_keepTheLoadingPayload_andChangeOnlyTheState() {
        let runs = LockedList<String>()
        let loading = DownloadItems(query: "be", sideEffectRuns: runs)
        let completed = loading.completedAction { $0.result = ["beta"] }
        #expect(completed.state == .completed)
        #expect(completed.query == "be")
        #expect(completed.result == ["beta"])
        #expect(loading.state == .loading)
        let failed = loading.failedAction()
        #expect(failed.state == .failed)
        #expect(failed.failure == nil)
        let progress = loading.progressAction(percentage: 0.75)
        #expect(progress.state == .progress(percentage: 0.75))
        #expect(progress.state.progressPercentage == 0.75)
    }

    @available(*, deprecated, message: "Exercises the deprecated AsyncAction")
    @Test func asyncActionState_equality_percentage_andDescription() {
        #expect(AsyncActionState.loading == .loading)
        #expect(AsyncActionState.progress(percentage: 0.5) == .progress(percentage: 0.5))
        #expect(AsyncActionState.progress(percentage: 0.5) != .progress(percentage: 0.6))
        #expect(AsyncActionState.completed != .failed)
        #expect(AsyncActionState.loading.progressPercentage == nil)
        #expect(AsyncActionState.completed.progressPercentage == nil)
        #expect(AsyncActionState.progress(percentage: 0.2).debugDescription == "progress(0.2)")
        #expect(AsyncActionState.failed.debugDescription == "failed")
    }

    @available(*, deprecated, message: "Exercises the deprecated AsyncAction")
    @Test func asyncAction_debugDescription_isTheTypeNameFollowedByTheAsyncState() {
        let toggle = Toggle()
        let typeName = String(reflecting: Toggle.self)
        #expect(toggle.debugDescription == "\(typeName).loading")
        #expect(toggle.completedAction().debugDescription == "\(typeName).completed")
        #expect(toggle.progressAction(percentage: 0.5).debugDescription == "\(typeName).progress(0.5)")
        // Also through the existential the store and loggers see.
        let item: any Dispatchable = toggle.failedAction()
        #expect(item.debugDescription == "\(typeName).failed")
    }
}
