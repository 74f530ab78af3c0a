import Katana
import KatanaTestSupport

/// An interceptor a test puts first: it lists the items whose trip through the rest of the chain
/// has ended, so that the test can wait until what later interceptors do with them is done (a
/// store's promise may settle before its interceptors have returned). The store's own activity
/// signal, which `store.waitUntilIdle()` waits on in the root package, is `package` to Katana and
/// out of this package's reach; the list wakes the test's wait itself.
///
/// ```swift
/// let finished = LockedList<String>()
/// let store = CounterStore(interceptors: Interceptors { FinishLine(finished: finished); logger })
/// try await store.dispatch(Bump()).settled()
/// try await finished.waitForCount(1)
/// ```
public struct FinishLine: Interceptor {
    /// The types of the items whose trip has ended (`String(reflecting:)`), in the order they ended.
    public let finished: LockedList<String>

    public init(finished: LockedList<String>) {
        self.finished = finished
    }

    public func intercept(_ item: any Dispatchable, next: InterceptorNext) throws {
        defer { finished.append(String(reflecting: type(of: item))) }
        try next(item)
    }
}
