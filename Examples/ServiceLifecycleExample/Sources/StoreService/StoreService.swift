import Katana
import ServiceLifecycle

/// A store as one of a service's parts: it runs until the service group shuts down gracefully,
/// then drains (the snippet of docs/Lifetimes.md, "A store as one of a service's parts", as written there).
struct StoreService<S: State, D: SideEffectDependencyContainer>: Service {
    let store: Store<S, D>

    func run() async throws {
        await withGracefulShutdownHandler {
            await store.runUntilShutdown()
        } onGracefulShutdown: { [store] in
            Task { await store.shutdown(.finishWork, deadline: .seconds(10)) }
        }
    }
}
