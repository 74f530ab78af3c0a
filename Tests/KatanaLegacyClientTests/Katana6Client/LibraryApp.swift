import Foundation
import Katana
import KatanaTestSupport

// A small app written the Katana 6 way (state updaters, side effects, dispatch promises chained
// with Hydra's operators), with `import Katana` only: its Hydra calls compile unchanged.

struct LibraryState: State {
    var books: [String] = []
    var badge = 0
    var lastError: String?
}

final class LibraryDependencies: SideEffectDependencyContainer {
    let catalogue = ["Dune", "Emma", "Ulysses"]
    init(dispatch: @escaping AnyDispatch, getState: @escaping GetState) {}
}

typealias LibraryStore = Store<LibraryState, LibraryDependencies>

func makeLibraryStore() -> LibraryStore {
    return LibraryStore(
        interceptors: [],
        stateInitializer: { LibraryState() },
        configuration: .init(listenersAsyncProvider: DispatchQueue(label: "library.listeners"))
    )
}

struct AddBook: StateUpdater {
    let title: String
    func updateState(_ state: inout LibraryState) {
        state.books.append(title)
    }
}

struct SetBadge: StateUpdater {
    let count: Int
    func updateState(_ state: inout LibraryState) {
        state.badge = count
    }
}

struct CatalogueDown: Error {}

/// Returns the catalogue from the dependencies.
struct FetchCatalogue: ReturningSideEffect {
    func sideEffect(_ context: AnySideEffectContext) throws -> [String] {
        guard let dependencies = context.anyDependencies as? LibraryDependencies else { throw CatalogueDown() }
        return dependencies.catalogue
    }
}

/// Fails with `CatalogueDown` on its first `failures` runs.
struct FlakyFetchCatalogue: ReturningSideEffect {
    let runs: LockedList<String>
    let failures: Int
    func sideEffect(_ context: AnySideEffectContext) throws -> [String] {
        runs.append("run")
        if runs.all.count <= failures {
            throw CatalogueDown()
        }
        return ["Dune"]
    }
}
