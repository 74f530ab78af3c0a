import Katana
import KatanaLegacy
import KatanaTestSupport
import Testing

// Katana 3.x code often made a store in a helper, dispatched to it and returned, keeping only a
// promise: 3.x's hidden global kept the store alive and its work was handled. No edit: this
// package's store stays alive while it has work (Migration.md, "Behaviour you may notice").

/// Fills a basket in a store of its own and returns once everything is dispatched; the listener
/// reads the store unowned, as 3.x listeners did.
func fillBasket(_ products: [String], log: LockedList<String>) -> Promise<Void> {
    let store = ShopStore()
    _ = store.addListener { [unowned store] in
        log.append(store.state.basket.joined(separator: ", "))
    }
    var last = Promise<Void>(resolved: ())
    for product in products {
        last = store.dispatch(AddToBasket(product: product))
    }
    return last
}

@Suite struct Katana3HelperStoreClientTests {
    @Test func aStoreMadeInAHelperThatReturned_handlesEverythingItWasGiven() async throws {
        let log = LockedList<String>()
        // The 3.x code blocks on the promise, as it did: on a thread of its own.
        try await onThreadOfItsOwn("the 3.x helper's promise") {
            try fillBasket(["apple", "bread", "milk"], log: log).wait(timeout: .seconds(10))
        }
        // One call per change; each reads the store's state when it runs, as in 3.x.
        #expect(log.all.count == 3)
        #expect(log.all.last == "apple, bread, milk")
    }
}
