import Foundation
import Katana
import KatanaLegacy
import Testing

/// The shop's tests, as a Katana 3.x suite wrote them; Migration.md's edit only: `try Hydra.await(p)`
/// became `try p.wait(timeout: .seconds(10))`.
@Suite struct Katana3ShopClientTests {
    @Test func checkout_awaitsEachDispatch_andUsesTheValuesTheyReturn() throws {
        let store = ShopStore()
        try store.dispatch(AddToBasket(product: "apple")).wait(timeout: .seconds(10))
        try store.dispatch(AddToBasket(product: "bread")).wait(timeout: .seconds(10))
        try store.dispatch(Checkout()).wait(timeout: .seconds(10))
        #expect(store.state.total == 5)
        #expect(store.state.receipts == ["apple, bread: 5"])
    }

    @Test func checkout_ofAProductWithoutPrice_failsWithTheError_awaitDispatchThrew() throws {
        let store = ShopStore()
        try store.dispatch(AddToBasket(product: "apple")).wait(timeout: .seconds(10))
        try store.dispatch(AddToBasket(product: "caviar")).wait(timeout: .seconds(10))
        #expect(throws: UnknownProduct(name: "caviar")) {
            try store.dispatch(Checkout()).wait(timeout: .seconds(10))
        }
        #expect(store.state.total == 0)
        #expect(store.state.receipts == [])
    }

    @Test func thenDispatch_chainsThreeSteps_eachOnTheStore_inOrder() throws {
        let store = ShopStore()
        try store.dispatch(AddToBasket(product: "bread"))
            .thenDispatch(AddToBasket(product: "milk"))
            .thenDispatch(Checkout())
            .wait(timeout: .seconds(10))
        #expect(store.state.basket == ["bread", "milk"])
        #expect(store.state.receipts == ["bread, milk: 3"])
    }

    @Test func thenDispatch_afterThen_stillDispatchesToTheStore() throws {
        let store = ShopStore()
        let screen = LinesLog()
        try store.dispatch(AddToBasket(product: "apple")).then { _ in
            screen.append("basket shown")
        }.thenDispatch(Checkout()).wait(timeout: .seconds(10))
        #expect(store.state.receipts == ["apple: 3"])

        let doubled = try store.dispatch(PriceOf(product: "bread")).then { price in
            price * 2
        }.thenDispatch { price in
            SetTotal(total: price)
        }.then { _ in
            store.state.total
        }.wait(timeout: .seconds(10))
        #expect(doubled == 4)
        #expect(screen.lines == ["basket shown"])
    }
}
