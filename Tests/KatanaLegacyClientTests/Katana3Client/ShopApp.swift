import Foundation
import Katana
import KatanaLegacy

// A small shop written the Katana 3.x way: state updaters, side effects that wait for what they
// dispatch with `awaitDispatch`, and dispatches chained with `thenDispatch`. Migration.md's edits
// only: `import Hydra` became `import KatanaLegacy` (for `awaitDispatch`), and the container's
// `PromisableStoreDispatch` became `AnyDispatch`. The price lookup is a returning side effect (a
// side effect with a value), in the spelling this package's `ReturningSideEffect` asks for.

struct ShopState: State {
    var basket: [String] = []
    var total = 0
    var receipts: [String] = []
}

final class ShopDependencies: SideEffectDependencyContainer {
    let priceList = ["apple": 3, "bread": 2, "milk": 1]
    init(dispatch: @escaping AnyDispatch, getState: @escaping GetState) {}
}

typealias ShopStore = Store<ShopState, ShopDependencies>

struct AddToBasket: StateUpdater {
    let product: String
    func updateState(_ state: inout ShopState) {
        state.basket.append(product)
    }
}

struct SetTotal: StateUpdater {
    let total: Int
    func updateState(_ state: inout ShopState) {
        state.total = total
    }
}

struct PrintReceipt: StateUpdater {
    func updateState(_ state: inout ShopState) {
        state.receipts.append("\(state.basket.joined(separator: ", ")): \(state.total)")
    }
}

struct UnknownProduct: Error, Equatable {
    let name: String
}

/// Looks up the price of a product; fails for a product the shop does not sell.
struct PriceOf: ReturningSideEffect {
    let product: String
    func sideEffect(_ context: AnySideEffectContext) throws -> Int {
        guard
            let dependencies = context.anyDependencies as? ShopDependencies,
            let price = dependencies.priceList[product]
        else {
            throw UnknownProduct(name: product)
        }
        return price
    }
}

/// Prices the basket, stores the total, then prints the receipt, each step once the one before
/// it has been handled; a product without a price stops the checkout with its error.
struct Checkout: SideEffect {
    func sideEffect(_ context: SideEffectContext<ShopState, ShopDependencies>) throws {
        var total = 0
        for product in context.getState().basket {
            total += try context.awaitDispatch(PriceOf(product: product))
        }
        try context.awaitDispatch(SetTotal(total: total))
        try context.awaitDispatch(PrintReceipt())
    }
}
