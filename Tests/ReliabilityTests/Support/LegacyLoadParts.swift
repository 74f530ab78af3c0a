import Katana
import KatanaLegacy
import KatanaObservers
import KatanaTestSupport

/// The Katana 2.x pieces the load mixes in on purpose: the `LegacyAdd` action, observer rules on it,
/// and a 2.x middleware bridged with `middlewareToInterceptor`.
///
/// Deprecated API warns wherever it is used, except inside a declaration that is deprecated itself.
/// The witnesses in ``Katana2xLoadParts`` are deprecated, and the harness reaches them through this
/// protocol, which is not (a call through a protocol requirement does not warn), so the load keeps
/// its legacy items and the build keeps quiet about them.
protocol LegacyLoadParts: Sendable {
    /// `LegacyAdd`'s fully qualified name, as the store writes it in its errors.
    var legacyAddTypeName: String { get }
    /// Dispatches a `LegacyAdd` through the typed `dispatch`, as 2.x code does.
    func dispatchLegacyAdd<D>(id: Int, amount: Int, to store: Store<LoadState, D>) -> Promise<Void>
    /// One `OnDispatch(LegacyAdd.self)` rule per counter, each counting the actions it sees.
    func legacyAddRules(counting hits: [LockedValue<Int>]) -> ObserverRules
    /// A 2.x middleware that calls `onItem` for every item and passes the item on, as an interceptor.
    func middlewareInterceptor(onItem: @escaping @Sendable () -> Void) -> StoreInterceptor
}

/// The legacy parts of the load.
let legacyParts: any LegacyLoadParts = Katana2xLoadParts()

/// ``LegacyLoadParts`` written with `KatanaLegacy`.
struct Katana2xLoadParts: LegacyLoadParts {
    @available(*, deprecated, message: "Mixes the deprecated Action into the load")
    var legacyAddTypeName: String {
        String(reflecting: LegacyAdd.self)
    }

    @available(*, deprecated, message: "Mixes the deprecated Action into the load")
    func dispatchLegacyAdd<D>(id: Int, amount: Int, to store: Store<LoadState, D>) -> Promise<Void> {
        store.dispatch(LegacyAdd(id: id, amount: amount))
    }

    @available(*, deprecated, message: "Mixes the deprecated Action into the load")
    func legacyAddRules(counting hits: [LockedValue<Int>]) -> ObserverRules {
        ObserverRules("legacy") {
            for counter in hits {
                OnDispatch(LegacyAdd.self) { _ in counter.withLock { $0 += 1 }; return nil }
            }
        }
    }

    @available(*, deprecated, message: "Mixes the deprecated StoreMiddleware into the load")
    func middlewareInterceptor(onItem: @escaping @Sendable () -> Void) -> StoreInterceptor {
        let middleware: StoreMiddleware = { _, _ in
            { next in
                { item in
                    onItem()
                    next(item)
                }
            }
        }
        return middlewareToInterceptor(middleware)
    }
}
