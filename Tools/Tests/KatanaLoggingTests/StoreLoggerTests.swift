import BridgeTestSupport
import Katana
import Logging
import Testing

@testable import KatanaLogging

/// `StoreLogger` writes one line per item into the logger it is given, with where the item came
/// from, how it went and how long it took; a level that drops the line costs no work.
@Suite struct StoreLoggerTests {
    typealias Key = StoreLogger.MetadataKey

    /// The keys of a line about an item that was not rejected.
    static let keys = [Key.duration, Key.kind, Key.origin, Key.outcome, Key.sequence, Key.type].sorted()

    /// A store whose chain is: the finish line, a logger into `log`, then `after`.
    static func store(logging log: CapturedLog, tally: Tally, _ logger: StoreLogger, then after: Interceptors = Interceptors {}) -> CounterStore {
        CounterStore(interceptors: Interceptors {
            FinishLine(tally: tally)
            logger
            after
        })
    }

    /// Whether `text` is a count of seconds written with six decimals ("0.000123").
    static func isSeconds(_ text: String?) -> Bool {
        guard let text, let dot = text.firstIndex(of: ".") else { return false }
        let whole = text[..<dot]
        let fraction = text[text.index(after: dot)...]
        return !whole.isEmpty && whole.allSatisfy(\.isNumber) && fraction.count == 6 && fraction.allSatisfy(\.isNumber)
    }

    @Test func anUpdaterFromOutsideIsLoggedWithEveryKey() throws {
        let log = CapturedLog()
        let tally = Tally()
        let store = Self.store(logging: log, tally: tally, StoreLogger(log.logger()))
        try store.dispatch(Bump()).wait(timeout: .seconds(10))
        #expect(tally.wait(for: 1))

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

    @Test func anItemASideEffectDispatchedNamesThatSideEffectAndItsSequence() throws {
        let log = CapturedLog()
        let tally = Tally()
        let store = Self.store(logging: log, tally: tally, StoreLogger(log.logger()))
        try store.dispatch(Forward()).wait(timeout: .seconds(10))
        #expect(tally.wait(for: 2))

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

    @Test func anItemFromLabelledStoreWorkNamesTheLabel() throws {
        let log = CapturedLog()
        let tally = Tally()
        let store = Self.store(logging: log, tally: tally, StoreLogger(log.logger()))
        try store.dispatch(ForwardLabelled()).wait(timeout: .seconds(10))
        #expect(tally.wait(for: 2))

        let bump = try #require(log.records(about: Bump.self).only)
        #expect(bump.text(Key.origin) == "store work \"nightly job\"")
    }

    @Test func anAsyncSideEffectIsLoggedAsOne() async throws {
        let log = CapturedLog()
        let tally = Tally()
        let store = Self.store(logging: log, tally: tally, StoreLogger(log.logger()))
        // Awaited, not waited for: the side effect's task needs a thread of the cooperative pool.
        try await store.dispatch(ForwardLater()).timeout(timeout: 10).value
        #expect(tally.wait(for: 2))

        let later = try #require(log.records(about: ForwardLater.self).only)
        #expect(later.text(Key.kind) == "asyncSideEffect")
        #expect(later.text(Key.outcome) == "handled")
        let bump = try #require(log.records(about: Bump.self).only)
        #expect(bump.text(Key.origin) == "side effect \(String(reflecting: ForwardLater.self)) #\(later.text(Key.sequence) ?? "?")")
    }

    @Test func anItemALaterInterceptorDoesNotPassOnIsLoggedAsBlocked() throws {
        let log = CapturedLog()
        let tally = Tally()
        let store = Self.store(logging: log, tally: tally, StoreLogger(log.logger()), then: Interceptors { DropDropped() })
        // A blocked updater's promise is fulfilled: the state is as it was, as the promise said.
        try store.dispatch(Dropped()).wait(timeout: .seconds(10))
        #expect(tally.wait(for: 1))

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

    @Test func anItemALaterInterceptorRejectsIsLoggedAtTheRejectedLevelWithItsError() throws {
        let log = CapturedLog()
        let tally = Tally()
        let store = Self.store(logging: log, tally: tally, StoreLogger(log.logger()), then: Interceptors { RefuseRefused() })
        #expect(throws: Refusal()) { try store.dispatch(Refused()).wait(timeout: .seconds(10)) }
        #expect(tally.wait(for: 1))

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

    @Test func theLevelsAreTheOnesGiven() throws {
        let log = CapturedLog()
        let tally = Tally()
        let logger = StoreLogger(log.logger(), level: .info, rejectedLevel: .error)
        let store = Self.store(logging: log, tally: tally, logger, then: Interceptors { RefuseRefused() })
        try store.dispatch(Bump()).wait(timeout: .seconds(10))
        _ = try? store.dispatch(Refused()).wait(timeout: .seconds(10))
        #expect(tally.wait(for: 2))

        #expect(log.records.map(\.level) == [.info, .error])
    }

    @Test func skippedTypesAreNotLogged() throws {
        let log = CapturedLog()
        let tally = Tally()
        let store = Self.store(logging: log, tally: tally, StoreLogger(log.logger(), skipping: [Bump.self]))
        try store.dispatch(Forward()).wait(timeout: .seconds(10))
        try store.dispatch(Bump()).wait(timeout: .seconds(10))
        #expect(tally.wait(for: 3))

        #expect(log.records.compactMap { $0.text(Key.type) } == [String(reflecting: Forward.self)])
        #expect(store.state.value == 2)
    }

    @Test func aLoggerAboveBothLevelsWritesNothing() throws {
        let log = CapturedLog()
        let tally = Tally()
        let store = Self.store(logging: log, tally: tally, StoreLogger(log.logger(level: .error)), then: Interceptors {
            DropDropped()
            RefuseRefused()
        })
        try store.dispatch(Bump()).wait(timeout: .seconds(10))
        try store.dispatch(Forward()).wait(timeout: .seconds(10))
        _ = try? store.dispatch(Dropped()).wait(timeout: .seconds(10))
        #expect(throws: Refusal()) { try store.dispatch(Refused()).wait(timeout: .seconds(10)) }
        #expect(tally.wait(for: 5))

        #expect(log.records.isEmpty)
        #expect(store.state.value == 2)
    }

    @Test func aLoggerBetweenTheLevelsWritesOnlyRejections() throws {
        let log = CapturedLog()
        let tally = Tally()
        let store = Self.store(logging: log, tally: tally, StoreLogger(log.logger(level: .info)), then: Interceptors {
            RefuseRefused()
        })
        try store.dispatch(Bump()).wait(timeout: .seconds(10))
        _ = try? store.dispatch(Refused()).wait(timeout: .seconds(10))
        #expect(tally.wait(for: 2))

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
