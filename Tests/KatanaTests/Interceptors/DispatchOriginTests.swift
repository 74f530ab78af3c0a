import Foundation
import Katana
import KatanaTestSupport
import Testing

/// An interceptor reads where each item comes from (`InterceptedItem.current`): from outside, from
/// which side effect (sync or async, by its place in dispatch order), from labelled or unlabelled
/// store work; and after `next`, whether the item reached the store.
@Suite struct DispatchOriginTests {
    struct Counter: State { var value = 0 }
    typealias CounterStore = Store<Counter, EmptySideEffectDependencyContainer>

    struct Bump: StateUpdater {
        var tag = ""
        func updateState(_ state: inout Counter) { state.value += 1 }
    }

    struct BumpTwice: SideEffect {
        func sideEffect(_ context: SideEffectContext<Counter, EmptySideEffectDependencyContainer>) throws {
            try context.dispatch(Bump(tag: "sync")).wait(timeout: defaultTestTimeout)
            try context.labelled("nightly job").dispatch(Bump(tag: "labelled")).wait(timeout: defaultTestTimeout)
        }
    }

    struct BumpLater: AsyncSideEffect {
        func sideEffect(_ context: SideEffectContext<Counter, EmptySideEffectDependencyContainer>) async throws {
            try await Task.sleep(for: .milliseconds(1))
            try await context.dispatch(Bump(tag: "async")).value
        }
    }

    /// What the watcher saw of one item: what `current` said before `next`, and after.
    typealias Sighting = (item: any Dispatchable, before: InterceptedItem?, after: InterceptedItem?)

    /// The first sighting of an item of type `T` that `predicate` accepts.
    static func first<T>(
        _ type: T.Type, in seen: LockedList<Sighting>, where predicate: (T) -> Bool = { _ in true }
    ) -> (item: T, before: InterceptedItem?, after: InterceptedItem?)? {
        for entry in seen.all {
            if let item = entry.item as? T, predicate(item) { return (item, entry.before, entry.after) }
        }
        return nil
    }

    struct Watcher: Interceptor {
        let seen: LockedList<Sighting>
        func intercept(_ item: any Dispatchable, next: InterceptorNext) throws {
            let before = InterceptedItem.current
            try next(item)
            seen.append((item, before, InterceptedItem.current))
        }
    }

    struct BlockTagged: Interceptor {
        func intercept(_ item: any Dispatchable, next: InterceptorNext) throws {
            if (item as? Bump)?.tag == "block" { return }
            try next(item)
        }
    }

    @Test func eachItemSaysWhereItCameFrom() async throws {
        let seen = LockedList<Sighting>()
        let store = CounterStore(interceptors: Interceptors {
            Watcher(seen: seen)
            BlockTagged()
        })
        // Awaited, not waited for: the async side effect needs a thread of the cooperative pool.
        try await store.dispatch(Bump(tag: "outside")).value
        try await store.dispatch(BumpTwice()).value
        try await store.dispatch(BumpLater()).value
        try await store.waitUntil("the value to reach 4") { store.state.value == 4 }

        let outside = try #require(Self.first(Bump.self, in: seen) { $0.tag == "outside" })
        #expect(outside.before?.origin == .outside)
        #expect(outside.after?.hasReachedStore == true)

        let twice = try #require(Self.first(BumpTwice.self, in: seen))
        let twiceSequence = try #require(twice.before?.sequence)
        #expect(twice.before?.origin == .outside)
        let sync = try #require(Self.first(Bump.self, in: seen) { $0.tag == "sync" })
        #expect(sync.before?.origin == .sideEffect(type: String(reflecting: BumpTwice.self), sequence: twiceSequence))
        #expect(sync.before.map { $0.sequence > twiceSequence } == true)
        let labelled = try #require(Self.first(Bump.self, in: seen) { $0.tag == "labelled" })
        #expect(labelled.before?.origin == .storeWork(label: "nightly job"))

        let later = try #require(Self.first(BumpLater.self, in: seen))
        let async = try #require(Self.first(Bump.self, in: seen) { $0.tag == "async" })
        #expect(async.before?.origin == .sideEffect(type: String(reflecting: BumpLater.self), sequence: later.before?.sequence ?? .max))
    }

    @Test func afterNextAnInterceptorSeesWhetherTheItemWasBlocked() async throws {
        let seen = LockedList<Sighting>()
        let store = CounterStore(interceptors: Interceptors {
            Watcher(seen: seen)
            BlockTagged()
        })
        _ = try await rejection(of: store.dispatch(Bump(tag: "block")))
        let blocked = try #require(Self.first(Bump.self, in: seen) { $0.tag == "block" })
        #expect(blocked.before?.hasReachedStore == false)
        #expect(blocked.after?.hasReachedStore == false)
    }

    @Test func outsideAnInterceptorRunThereIsNoCurrentItem() async throws {
        #expect(InterceptedItem.current == nil)
        let store = CounterStore()
        let read = LockedList<InterceptedItem?>()
        let unsubscribe = store.addListener { _, _ in read.append(InterceptedItem.current) }
        try await store.dispatch(Bump()).settled()
        unsubscribe()
        #expect(read.all == [nil])
    }

    // The interceptor of docs/StoreAndThreading.md, "Where an item comes from".
    struct OriginLog: Interceptor {
        let log: @Sendable (String) -> Void

        func intercept(_ item: any Dispatchable, next: InterceptorNext) throws {
            let origin = InterceptedItem.current?.origin ?? .outside
            try next(item)
            let blocked = InterceptedItem.current?.hasReachedStore == false
            log("\(type(of: item)) from \(origin)\(blocked ? ", blocked" : "")")
        }
    }

    @Test func theArticlesOriginLogWritesWhereEachItemCameFrom() async throws {
        let lines = LockedList<String>()
        let store = CounterStore(interceptors: Interceptors {
            OriginLog { line in lines.append(line) }
            BlockTagged()
        })
        try await store.dispatch(BumpTwice()).value
        _ = try? await store.dispatch(Bump(tag: "block")).value
        #expect(lines.all.contains("Bump from side effect \(String(reflecting: BumpTwice.self)) #0"))
        #expect(lines.all.contains("Bump from store work \"nightly job\""))
        #expect(lines.all.contains("BumpTwice from outside"))
        #expect(lines.all.contains("Bump from outside, blocked"))
    }

    @Test func originsDescribeThemselves() {
        #expect(DispatchOrigin.outside.description == "outside")
        #expect(DispatchOrigin.sideEffect(type: "App.Fetch", sequence: 12).description == "side effect App.Fetch #12")
        #expect(DispatchOrigin.storeWork(label: "rule x").description == "store work \"rule x\"")
        #expect(DispatchOrigin.storeWork(label: nil).description == "store work")
    }
}
