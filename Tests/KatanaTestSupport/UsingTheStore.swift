import Katana

/// docs/StoreAndThreading.md's "Using the store": the article's state, updater, dependencies and
/// side effect, once for every test target. KatanaTests runs the article's statements with them
/// (ReadmeQuickStartTests), and KatanaTestingTests docs/Testing.md's tests, which are written for
/// this counter. Public (with public initialisers) so that other targets can use them; otherwise
/// as written in the article.
public enum UsingTheStore {
    public struct CounterState: State {
        public var counter = 0
        public init() {}
    }

    public struct Increment: StateUpdater {
        public var amount = 1
        public init(amount: Int = 1) {
            self.amount = amount
        }
        public func updateState(_ state: inout CounterState) {
            state.counter += amount
        }
    }

    public final class AppDependencies: SideEffectDependencyContainer {
        public init(dispatch: @escaping AnyDispatch, getState: @escaping GetState) {}
        public func fetchAmount() async throws -> Int { 41 }
    }

    public struct LoadAmount: AsyncSideEffect {
        public init() {}
        public func sideEffect(_ context: SideEffectContext<CounterState, AppDependencies>) async throws -> Int {
            let amount = try await context.dependencies.fetchAmount()
            try await context.dispatch(Increment(amount: amount)).value
            return context.getState().counter
        }
    }
}
