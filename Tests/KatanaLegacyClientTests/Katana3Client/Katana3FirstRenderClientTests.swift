import Dispatch
import Katana
import KatanaLegacy
import KatanaTestSupport
import XCTest

// A Katana 3.x screen renders from the store's state in its listener, and relies on the ready
// store's first call to draw at all. Migration.md's edit only: the store is given
// `configuration: .init(listenersAsyncProvider: DispatchQueue.main, callsListenersWhenReady: true)`
// (3.x called its listeners on the main queue, once when ready and after every change).

final class BasketScreen {
    private(set) var renderedLines: [String] = []
    var onRender: (() -> Void)?

    func render(_ state: ShopState) {
        renderedLines.append(state.basket.isEmpty ? "empty basket" : state.basket.joined(separator: ", "))
        onRender?()
    }
}

final class Katana3FirstRenderClientTests: XCTestCase {
    /// How long a test waits for the renders: the package's default bound, a safety net.
    let renderTimeout = TimeInterval(defaultTestTimeout.components.seconds)

    func makeStore() -> ShopStore {
        ShopStore(
            interceptors: [],
            stateInitializer: { ShopState() },
            configuration: .init(listenersAsyncProvider: DispatchQueue.main, callsListenersWhenReady: true)
        )
    }

    // On the main actor, as a 3.x screen's code ran on the main thread: the main queue, where the
    // ready store's first call is delivered, runs nothing else until the test awaits the renders,
    // so the listener is added before that call, as in the app.
    @MainActor
    func testTheScreenRendersOnceTheStoreIsReady_beforeAnythingIsDispatched() async {
        let store = makeStore()
        let screen = BasketScreen()
        let firstRender = expectation(description: "first render")
        screen.onRender = { firstRender.fulfill() }
        _ = store.addListener { screen.render(store.state) }
        await fulfillment(of: [firstRender], timeout: renderTimeout)
        XCTAssertEqual(screen.renderedLines, ["empty basket"])
    }

    @MainActor
    func testTheFirstRenderComesBeforeTheChangesOfWhatWasDispatched() async {
        let store = makeStore()
        let screen = BasketScreen()
        let rendersDone = expectation(description: "three renders")
        rendersDone.expectedFulfillmentCount = 3
        screen.onRender = { rendersDone.fulfill() }
        _ = store.addListener { screen.render(store.state) }
        store.dispatch(AddToBasket(product: "apple"))
        store.dispatch(AddToBasket(product: "milk"))
        await fulfillment(of: [rendersDone], timeout: renderTimeout)
        XCTAssertEqual(screen.renderedLines.count, 3)
        XCTAssertEqual(screen.renderedLines.last, "apple, milk")
    }
}
