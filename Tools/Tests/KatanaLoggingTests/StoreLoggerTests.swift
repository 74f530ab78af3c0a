import BridgeTestSupport
import Katana
import KatanaTestSupport
import Logging
import Testing

@testable import KatanaLogging

/// `StoreLogger` writes one line per item into the logger it is given, with where the item came
/// from, how it went and how long it took; a level that drops the line costs no work.
@Suite struct StoreLoggerTests {
    typealias Key = StoreLogger.MetadataKey

    /// The keys of a line about an item that was not rejected.
    static let keys = [Key.duration, Key.kind, Key.origin, Key.outcome, Key.sequence, Key.type].sorted()

    /// A store whose chain is: the finish line, the logger `makeLogger` makes for a fresh log,
    /// then `after`; with the log, and the finish line's list to wait on.
    static func loggedStore(
        _ makeLogger: (CapturedLog) -> StoreLogger = { StoreLogger($0.logger()) }, then after: Interceptors = Interceptors {}
    ) -> (store: CounterStore, log: CapturedLog, finished: LockedList<String>) {
        let log = CapturedLog()
        let finished = LockedList<String>()
        let store = CounterStore(interceptors: Interceptors {
            FinishLine(finished: finished)
            makeLogger(log)
            after
        })
        return (store, log, finished)
    }

    /// Whether `text` is a count of seconds written with six decimals ("0.000123").
    static func isSeconds(_ text: String?) -> Bool {
        guard let text, let dot = text.firstIndex(of: ".") else { return false }
        let whole = text[..<dot]
        let fraction = text[text.index(after: dot)...]
        return !whole.isEmpty && whole.allSatisfy(\.isNumber) && fraction.count == 6 && fraction.allSatisfy(\.isNumber)
    }

    @Test func anUpdaterFromOutsideIsLoggedWithEveryKey() async throws {
        let (store, log, finished) = Self.loggedStore()
        try await store.dispatch(Bump()).settled()
        try await finished.waitForCount(1)

        let line = try #require(log.records.only)
        #expect(line.level == .debug)
        #expect(line.message.description == "dispatched \(Bump().debugDescription)")
        #expect(line.keys == Self.keys)
        #expect(line.text(Key.type) == String(reflecting: Bump.self))
        #expect(line.text(Key.kind) == "updater")
        #expect(line.text(Key.origin) == "outside")
        #expect(line.text(Key.sequence) == "0")
        #expect(line.text(Key.outcome) == "handled")
        #expect(Self.isSeconds(line.text(Key.duration)))
        #expect(line.error == nil)
    }

    @Test func anItemASideEffectDispatchedNamesThatSideEffectAndItsSequence() async throws {
        let (store, log, finished) = Self.loggedStore()
        try await store.dispatch(Forward()).settled()
        try await finished.waitForCount(2)

        let forward = try #require(log.records(about: Forward.self).only)
        #expect(forward.text(Key.kind) == "sideEffect")
        #expect(forward.text(Key.origin) == "outside")
        #expect(forward.text(Key.outcome) == "handled")
        let sequence = try #require(forward.text(Key.sequence))

        let bump = try #require(log.records(about: Bump.self).only)
        #expect(bump.keys == Self.keys)
        #expect(bump.text(Key.origin) == "side effect \(String(reflecting: Forward.self)) #\(sequence)")
        #expect(bump.text(Key.kind) == "updater")
        #expect(bump.text(Key.outcome) == "handled")
        #expect(bump.text(Key.sequence).flatMap(UInt64.init).map { $0 > UInt64(sequence)! } == true)
    }

    @Test func anItemFromLabelledStoreWorkNamesTheLabel() async throws {
        let (store, log, finished) = Self.loggedStore()
        try await store.dispatch(ForwardLabelled()).settled()
        try await finished.waitForCount(2)

        let bump = try #require(log.records(about: Bump.self).only)
        #expect(bump.text(Key.origin) == "store work \"nightly job\"")
    }

    @Test func anAsyncSideEffectIsLoggedAsOne() async throws {
        let (store, log, finished) = Self.loggedStore()
        // Awaited, not waited for: the side effect's task needs a thread of the cooperative pool.
        try await store.dispatch(ForwardLater()).settled()
        try await finished.waitForCount(2)

        let later = try #require(log.records(about: ForwardLater.self).only)
        #expect(later.text(Key.kind) == "asyncSideEffect")
        #expect(later.text(Key.outcome) == "handled")
        let bump = try #require(log.records(about: Bump.self).only)
        #expect(bump.text(Key.origin) == "side effect \(String(reflecting: ForwardLater.self)) #\(later.text(Key.sequence) ?? "?")")
    }

    @Test func anItemALaterInterceptorDoesNotPassOnIsLoggedAsBlocked() async throws {
        let (store, log, finished) = Self.loggedStore(then: Interceptors { DropDropped() })
        // A blocked updater's promise is fulfilled: the state is as it was, as the promise said.
        try await store.dispatch(Dropped()).settled()
        try await finished.waitForCount(1)

        let line = try #require(log.records.only)
        #expect(line.level == .debug)
        #expect(line.message.description == "dispatched \(Dropped().debugDescription)")
        #expect(line.keys == Self.keys)
        #expect(line.text(Key.type) == String(reflecting: Dropped.self))
        #expect(line.text(Key.kind) == "updater")
        #expect(line.text(Key.origin) == "outside")
        #expect(line.text(Key.sequence) == "0")
        #expect(line.text(Key.outcome) == "blocked")
        #expect(Self.isSeconds(line.text(Key.duration)))
        #expect(store.state.value == 0)
    }

    @Test func anItemALaterInterceptorRejectsIsLoggedAtTheRejectedLevelWithItsError() async throws {
        let (store, log, finished) = Self.loggedStore(then: Interceptors { RefuseRefused() })
        await #expect(throws: Refusal()) { try await store.dispatch(Refused()).settled() }
        try await finished.waitForCount(1)

        let line = try #require(log.records.only)
        #expect(line.level == .warning)
        #expect(line.message.description == "dispatched \(Refused().debugDescription)")
        #expect(line.keys == (Self.keys + [Key.error]).sorted())
        #expect(line.text(Key.type) == String(reflecting: Refused.self))
        #expect(line.text(Key.kind) == "updater")
        #expect(line.text(Key.origin) == "outside")
        #expect(line.text(Key.sequence) == "0")
        #expect(line.text(Key.outcome) == "rejected")
        #expect(Self.isSeconds(line.text(Key.duration)))
        #expect(line.text(Key.error) == "refused by the test")
        #expect(line.error as? Refusal == Refusal())
        #expect(store.state.value == 0)
    }

    @Test func theLevelsAreTheOnesGiven() async throws {
        let (store, log, finished) = Self.loggedStore(
            { StoreLogger($0.logger(), level: .info, rejectedLevel: .error) }, then: Interceptors { RefuseRefused() }
        )
        try await store.dispatch(Bump()).settled()
        _ = try? await store.dispatch(Refused()).settled()
        try await finished.waitForCount(2)

        #expect(log.records.map(\.level) == [.info, .error])
    }

    @Test func skippedTypesAreNotLogged() async throws {
        let (store, log, finished) = Self.loggedStore({ StoreLogger($0.logger(), skipping: [Bump.self]) })
        try await store.dispatch(Forward()).settled()
        try await store.dispatch(Bump()).settled()
        try await finished.waitForCount(3)

        #expect(log.records.compactMap { $0.text(Key.type) } == [String(reflecting: Forward.self)])
        #expect(store.state.value == 2)
    }

    @Test func aLoggerAboveBothLevelsWritesNothing() async throws {
        let (store, log, finished) = Self.loggedStore({ StoreLogger($0.logger(level: .error)) }, then: Interceptors {
            DropDropped()
            RefuseRefused()
        })
        try await store.dispatch(Bump()).settled()
        try await store.dispatch(Forward()).settled()
        _ = try? await store.dispatch(Dropped()).settled()
        await #expect(throws: Refusal()) { try await store.dispatch(Refused()).settled() }
        try await finished.waitForCount(5)

        #expect(log.records.isEmpty)
        #expect(store.state.value == 2)
    }

    @Test func aLoggerBetweenTheLevelsWritesOnlyRejections() async throws {
        let (store, log, finished) = Self.loggedStore({ StoreLogger($0.logger(level: .info)) }, then: Interceptors {
            RefuseRefused()
        })
        try await store.dispatch(Bump()).settled()
        _ = try? await store.dispatch(Refused()).settled()
        try await finished.waitForCount(2)

        let line = try #require(log.records.only)
        #expect(line.level == .warning)
        #expect(line.text(Key.outcome) == "rejected")
        #expect(Self.isSeconds(line.text(Key.duration)))
    }

    @Test func durationsAreSecondsRoundedToTheMicrosecond() {
        #expect(secondsWithMicroseconds(.zero) == "0.000000")
        #expect(secondsWithMicroseconds(.microseconds(123)) == "0.000123")
        #expect(secondsWithMicroseconds(.nanoseconds(123_499)) == "0.000123")
        #expect(secondsWithMicroseconds(.nanoseconds(123_500)) == "0.000124")
        #expect(secondsWithMicroseconds(.milliseconds(1_500)) == "1.500000")
        #expect(secondsWithMicroseconds(.seconds(2) + .nanoseconds(999_999_600)) == "3.000000")
        #expect(secondsWithMicroseconds(.seconds(-1)) == "0.000000")
    }
}

extension Collection {
    /// The one element, or nil when there are none or several.
    var only: Element? {
        count == 1 ? first : nil
    }

}

/// Lines written inside the item's dispatch context, for the logger's metadata provider.
extension StoreLoggerTests {
    /// A request id in a task-local, as a tracer's context is.
    enum Request {
        @TaskLocal static var id: String?
    }

    @Test func givenTheStoresDispatchContextEachLineCarriesWhatItsItemsRequestProvides() async throws {
        let requestContext = DispatchContext(
            capture: { Request.id },
            restore: { value, body in Request.$id.withValue(value as? String) { body() } },
            restoreAsync: { value, body in await Request.$id.withValue(value as? String) { await body() } }
        )
        let requestIDs = Logger.MetadataProvider { Request.id.map { ["request": .string($0)] } ?? [:] }
        let log = CapturedLog()
        let finished = LockedList<String>()
        let store = CounterStore(
            interceptors: Interceptors {
                FinishLine(finished: finished)
                StoreLogger(log.logger(metadataProvider: requestIDs), dispatchContext: requestContext)
            },
            configuration: .init(dispatchContext: requestContext)
        )
        try await Request.$id.withValue("r1") {
            try await store.dispatch(ForwardLater()).settled()
        }
        try await store.dispatch(Bump()).settled()
        try await finished.waitForCount(3)

        // The side effect and what it dispatched from its task belong to r1; the last Bump to none.
        #expect(log.records(about: ForwardLater.self).map { $0.text("request") } == ["r1"])
        #expect(log.records(about: Bump.self).map { $0.text("request") } == ["r1", nil])
    }

    @Test func withoutTheDispatchContextTheLinesCarryNoRequest() async throws {
        let requestIDs = Logger.MetadataProvider { Request.id.map { ["request": .string($0)] } ?? [:] }
        let (store, log, finished) = Self.loggedStore { StoreLogger($0.logger(metadataProvider: requestIDs)) }
        try await Request.$id.withValue("r1") {
            try await store.dispatch(Bump()).settled()
        }
        try await finished.waitForCount(1)
        #expect(log.records(about: Bump.self).map { $0.text("request") } == [nil])
    }
}
