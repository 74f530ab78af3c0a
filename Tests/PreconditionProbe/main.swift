import Foundation
import Katana
import KatanaTestSupport

// Makes one of the store's documented programming errors, chosen by the first argument, so that
// `StorePreconditionTests` can check that the process stops with the message naming the fix, in a
// debug build and in an optimised one (CI builds this probe with `-c release` too):
//   before-ready            reads `state` before the store is ready
//   inside-updater          reads `store.state` from inside one of the store's own updaters
//   through-dependencies    reads the dependencies' `getState` from inside an updater

struct ProbeState: State {
    var counter = 0
}

/// Keeps the `getState` closure the store hands its dependencies.
final class ProbeDependencies: SideEffectDependencyContainer {
    let getState: GetState
    init(dispatch: @escaping AnyDispatch, getState: @escaping GetState) {
        self.getState = getState
    }
}

typealias ProbeStore = Store<ProbeState, ProbeDependencies>

/// An executor that never runs what it is given: a store started with it never becomes ready.
struct NeverExecutor: Executor {
    func executeAsync(_ block: @escaping @Sendable () -> Void) {}
    func executeSync<T>(_ block: () throws -> T) rethrows -> T { try block() }
}

/// Reads the store's state in the middle of its own update (the store is put in `box` once made).
struct ReadsTheStore: StateUpdater {
    let box: LockedValue<ProbeStore?>
    func updateState(_ state: inout ProbeState) {
        state.counter += 1
        if let store = box.value {
            state.counter = store.state.counter
        }
    }
}

/// Reads the state through the dependencies in the middle of an update.
struct ReadsThroughDependencies: StateUpdater {
    let dependencies: ProbeDependencies
    func updateState(_ state: inout ProbeState) {
        state.counter = (dependencies.getState() as? ProbeState)?.counter ?? -1
    }
}

let mode = CommandLine.arguments.dropFirst().first ?? ""
switch mode {
case "before-ready":
    let store = ProbeStore(
        interceptors: [],
        stateInitializer: { ProbeState() },
        configuration: .init(stateInitializerAsyncProvider: NeverExecutor())
    )
    print(store.state.counter)
case "inside-updater":
    let box = LockedValue<ProbeStore?>(nil)
    let store = ProbeStore()
    box.withLock { $0 = store }
    try store.dispatch(ReadsTheStore(box: box)).wait(timeout: .seconds(10))
case "through-dependencies":
    let store = ProbeStore()
    try store.dispatch(ReadsThroughDependencies(dependencies: store.dependencies)).wait(timeout: .seconds(10))
default:
    FileHandle.standardError.write(Data("usage: katana-precondition-probe before-ready | inside-updater | through-dependencies\n".utf8))
    exit(2)
}
FileHandle.standardError.write(Data("katana-precondition-probe: the store did not stop the process\n".utf8))
exit(3)
