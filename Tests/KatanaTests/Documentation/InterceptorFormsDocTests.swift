import Foundation
import Katana
import KatanaTestSupport
import Testing

/// docs/StoreAndThreading.md's "Two forms of interceptor", compiled and run.
enum InterceptorFormsDoc {
    typealias CounterState = UsingTheStore.CounterState
    typealias Increment = UsingTheStore.Increment
    typealias AppDependencies = UsingTheStore.AppDependencies

    /// Where the article's audit trail writes: the names of the items it saw.
    final class AuditLog: Sendable {
        private let names = LockedList<String>()

        func record(_ item: any Dispatchable) {
            names.append(String(describing: type(of: item)))
        }

        var recorded: [String] { names.all }
    }

    struct AuditTrail: Interceptor {
        let audit: AuditLog

        func intercept(_ item: any Dispatchable, next: InterceptorNext) throws {
            audit.record(item)
            try next(item)
        }
    }

    /// The article's store, with the logger's lines going to `lines` instead of standard output.
    static func makeStore(audit: AuditLog, legacyInterceptors: [StoreInterceptor]) -> Store<CounterState, AppDependencies> {
        let store = Store<CounterState, AppDependencies>(interceptors: Interceptors {
            AuditTrail(audit: audit)
            DispatchableLogger.logging(blackList: [Increment.self])
            legacyInterceptors          // [StoreInterceptor], Katana's closures, in the same chain
        })
        return store
    }
}

@Suite struct InterceptorFormsDocTests {
    @Test func article_valueAndClosureInterceptors_seeEachItemInTheOrderWritten() async throws {
        let audit = InterceptorFormsDoc.AuditLog()
        let order = LockedList<String>()
        let legacy: StoreInterceptor = { _ in
            { next in
                { item in
                    order.append("closure saw \(type(of: item))")
                    try next(item)
                }
            }
        }
        let store = InterceptorFormsDoc.makeStore(audit: audit, legacyInterceptors: [legacy])
        try await store.dispatch(InterceptorFormsDoc.Increment(amount: 2)).settled()
        #expect(audit.recorded == ["Increment"])
        #expect(order.all == ["closure saw Increment"])
        #expect(store.state.counter == 2)
    }
}
