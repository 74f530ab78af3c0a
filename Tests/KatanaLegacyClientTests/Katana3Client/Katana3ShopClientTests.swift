import Foundation
import Katana
import KatanaLegacy
import KatanaTestSupport
import Testing

/// The shop's tests, as a Katana 3.x suite wrote them; Migration.md's edit only: `try Hydra.await(p)`
/// became `try p.wait(timeout: .seconds(10))`. Those waits block, as the suite's did: each runs on
/// a thread of its own, and the test checks what they returned.
@Suite struct Katana3ShopClientTests {
    @Test func checkout_awaitsEachDispatch_andUsesTheValuesTheyReturn() async throws {
        let store = ShopStore()
        try await onThreadOfItsOwn("the 3.x checkout") {
            try store.dispatch(AddToBasket(product: "apple")).wait(timeout: .seconds(10))
            try store.dispatch(AddToBasket(product: "bread")).wait(timeout: .seconds(10))
            try store.dispatch(Checkout()).wait(timeout: .seconds(10))
        }
        #expect(store.state.total == 5)
        #expect(store.state.receipts == ["apple, bread: 5"])
    }

    @Test func checkout_ofAProductWithoutPrice_failsWithTheError_awaitDispatchThrew() async throws {
        let store = ShopStore()
        try await onThreadOfItsOwn("filling the 3.x basket") {
            try store.dispatch(AddToBasket(product: "apple")).wait(timeout: .seconds(10))
            try store.dispatch(AddToBasket(product: "caviar")).wait(timeout: .seconds(10))
        }
        await #expect(throws: UnknownProduct(name: "caviar")) {
            try await onThreadOfItsOwn("the 3.x checkout") {
                try store.dispatch(Checkout()).wait(timeout: .seconds(10))
            }
        }
        #expect(store.state.total == 0)
        #expect(store.state.receipts == [])
    }

    @Test func thenDispatch_chainsThreeSteps_eachOnTheStore_inOrder() async throws {
        let store = ShopStore()
        try await onThreadOfItsOwn("the 3.x chain") {
            try store.dispatch(AddToBasket(product: "bread"))
                .thenDispatch(AddToBasket(product: "milk"))
                .thenDispatch(Checkout())
                .wait(timeout: .seconds(10))
        }
        #expect(store.state.basket == ["bread", "milk"])
        #expect(store.state.receipts == ["bread, milk: 3"])
    }

    @Test func thenDispatch_afterThen_stillDispatchesToTheStore() async throws {
        let store = ShopStore()
        let screen = LockedList<String>()
        try await onThreadOfItsOwn("the 3.x chain") {
            try store.dispatch(AddToBasket(product: "apple")).then { _ in
                screen.append("basket shown")
            }.thenDispatch(Checkout()).wait(timeout: .seconds(10))
        }
        #expect(store.state.receipts == ["apple: 3"])

        let doubled = try await onThreadOfItsOwn("the 3.x chain") {
            try store.dispatch(PriceOf(product: "bread")).then { price in
                price * 2
            }.thenDispatch { price in
                SetTotal(total: price)
            }.then { _ in
                store.state.total
            }.wait(timeout: .seconds(10))
        }
        #expect(doubled == 4)
        #expect(screen.all == ["basket shown"])
    }
}
