import Katana

// The kinds of bad input BadInputTests dispatches, each a mistake a program can make.

/// A state of another type, to provoke mismatches.
struct ForeignState: State, Equatable {
    var value = 0
}

/// Neither a state updater nor a side effect.
struct NeitherKind: Dispatchable {}

/// Both a state updater and a side effect.
struct BothKinds: AnyStateUpdater, AnySideEffect {
    func updatedState(currentState: any State) -> any State { currentState }
    func anySideEffect(_ context: any AnySideEffectContext) throws -> any Sendable { () }
}

/// An updater of another state type.
struct ForeignUpdater: StateUpdater {
    func updateState(_ state: inout ForeignState) { state.value += 1 }
}

/// A type-erased updater that returns a state of the wrong type.
struct ReturnsForeignState: AnyStateUpdater {
    func updatedState(currentState: any State) -> any State { ForeignState(value: 1) }
}

/// A side effect whose state type is not the store's.
struct ForeignStateSideEffect: SideEffect {
    func sideEffect(_ context: SideEffectContext<ForeignState, LoadDependencies>) throws {}
}

/// An async side effect whose dependency type is not the store's.
struct ForeignDependenciesAsyncSideEffect: AsyncSideEffect {
    func sideEffect(_ context: SideEffectContext<LoadState, EmptySideEffectDependencyContainer>) async throws {}
}

/// Dependencies that keep the store's dispatch function, to dispatch after the store is gone.
final class KeepingDependencies: SideEffectDependencyContainer {
    let dispatch: AnyDispatch
    init(dispatch: @escaping AnyDispatch, getState: @escaping GetState) {
        self.dispatch = dispatch
    }
}
