import Dispatch
import Foundation
import Katana
import KatanaTestSupport
import Testing

/// An async side effect that naps (cancellably) and returns `amount`.
struct Nap: AsyncSideEffect, Tagged {
    let id: Int
    let amount: Int
    func sideEffect(_ context: SideEffectContext<LoadState, LoadDependencies>) async throws -> Int {
        try await Task.sleep(for: .microseconds(200))
        return amount
    }
}

/// A kilobyte that a state owns, counted while it is alive. How many of them exist is how many
/// distinct states something still holds: a figure other tests in the process cannot move, unlike
/// the resident set.
final class Kilobyte: Equatable, Sendable {
    let bytes: [UInt8]
    private let census: Census

    init(fill: UInt8, census: Census) {
        bytes = [UInt8](repeating: fill, count: 1024)
        self.census = census
        census.alive.withLock { $0 += 1 }
    }

    deinit {
        census.alive.withLock { $0 -= 1 }
    }

    static func == (lhs: Kilobyte, rhs: Kilobyte) -> Bool {
        lhs.bytes == rhs.bytes
    }
}

/// The number of `Kilobyte`s alive, one census per test.
final class Census: Sendable {
    let alive = LockedValue(0)
}

/// A state whose every value owns a kilobyte of its own, so that keeping many states costs memory.
struct BulkyState: State, Equatable {
    var ticks = 0
    var payload: Kilobyte?
}

/// Counts a tick and gives the new state a payload of its own.
struct BulkyTick: StateUpdater {
    let census: Census

    func updateState(_ state: inout BulkyState) {
        state.ticks += 1
        state.payload = Kilobyte(fill: UInt8(truncatingIfNeeded: state.ticks), census: census)
    }
}

extension ReliabilityStorms {
    /// Cancellation and shutdown racing with dispatches, and the memory a slow consumer costs.
    @Suite struct LifetimeStormTests {
        /// 10,000 dispatches of updaters and side effects, each cancelled by another thread at
        /// whatever point it has reached: every promise settles exactly once, an updater is applied
        /// exactly when its promise is fulfilled, and no side effect is left running.
        @Test func cancelDispatchRaces_10000_everyPromiseSettlesExactlyOnce() async throws {
            let count = 10_000
            let store = LoadStore(
                interceptors: [],
                stateInitializer: { LoadState() },
                configuration: .init(listenersAsyncProvider: DispatchQueue(label: "ReliabilityTests.cancelStorm.listeners"))
            )
            let ledger = PromiseLedger(count: count)
            let callbacks = CallbackQueues(label: "ReliabilityTests.cancelStorm.callbacks")
            let cancellers = LockedValue<[@Sendable () -> Void]>([])
            // Signalled once per canceller added: the cancelling thread waits on it when it has
            // caught up, so that it does not take a core from the dispatching thread.
            let added = DispatchSemaphore(value: 0)
            let cancelLater: @Sendable (@escaping @Sendable () -> Void) -> Void = { cancel in
                cancellers.withLock { $0.append(cancel) }
                added.signal()
            }
            let updaterAmounts = LockedValue<[Int: Int]>([:])

            let finished = await runConcurrently(threads: 2) { thread in
                if thread == 0 {
                    var random = SplitMix(seed: 14)
                    for index in 0..<count {
                        switch Int.random(in: 0..<4, using: &random) {
                        case 0, 1:
                            let amount = Int.random(in: 1...9, using: &random)
                            updaterAmounts.withLock { $0[index] = amount }
                            let promise = store.dispatch(Add(id: index, amount: amount))
                            ledger.watch(promise, index: index, on: callbacks) { _ in amount }
                            cancelLater { promise.cancel() }
                        case 2:
                            let promise = store.dispatch(Nap(id: index, amount: index))
                            ledger.watch(promise, index: index, on: callbacks) { $0 }
                            cancelLater { promise.cancel() }
                        default:
                            let promise = store.dispatch(Touch(id: index))
                            ledger.watch(promise, index: index, on: callbacks) { _ in nil }
                            cancelLater { promise.cancel() }
                        }
                    }
                } else {
                    // Cancels each dispatch as soon as it exists, racing with its handling.
                    // Takes only the new ones (holding a copy of the whole list would make each append
                    // copy it), and waits for the next one when there are none.
                    var next = 0
                    let deadline = ContinuousClock.now + reliabilityTimeout
                    while next < count, ContinuousClock.now < deadline {
                        let batch = cancellers.withLock { list in Array(list[next...]) }
                        for cancel in batch {
                            cancel()
                        }
                        next += batch.count
                        if batch.isEmpty {
                            _ = added.wait(timeout: .now() + 1)
                        }
                    }
                }
            }
            #expect(finished)
            #expect(await ledger.allSettled(), "settled \(ledger.settledCount) of \(count)")
            #expect(ledger.settledMoreThanOnce == 0)
            try await store.waitUntil("every side effect to end", timeout: reliabilityTimeout) { store.activeSideEffectCount == 0 }

            // The state holds exactly the updaters whose promises were fulfilled.
            var expectedTotal = 0
            var applied = 0
            var cancelled = 0
            for (index, amount) in updaterAmounts.value {
                switch ledger.outcome(index) {
                case .fulfilled:
                    expectedTotal += amount
                    applied += 1
                case .rejected(let reason):
                    #expect(reason.hasPrefix("katana \(KatanaError.cancelled(item: "ReliabilityTests.Add"))"))
                    cancelled += 1
                case nil:
                    Issue.record("updater \(index) never settled")
                }
            }
            try await store.dispatch(Add(id: -1, amount: 0)).value
            #expect(store.state.total == expectedTotal)
            #expect(store.state.seq == applied + 1)
            print("LifetimeStorm: cancel races: \(applied) updaters applied, \(cancelled) cancelled before they were handled")
        }

        /// Twenty stores, each shut down (alternately finishing and cancelling work) while a thread
        /// keeps dispatching to it: every promise settles exactly once, nothing changes the state
        /// after the shutdown returns, and every later dispatch is refused.
        @Test func shutdownWhileDispatching_20Stores_everyPromiseSettles_andNothingRunsAfterwards() async throws {
            for round in 0..<20 {
                let store = LoadStore(
                    interceptors: [],
                    stateInitializer: { LoadState() },
                    configuration: .init(listenersAsyncProvider: DispatchQueue(label: "ReliabilityTests.shutdownStorm.listeners"))
                )
                let perRound = 2_000
                let ledger = PromiseLedger(count: perRound)
                let callbacks = CallbackQueues(label: "ReliabilityTests.shutdownStorm.callbacks")
                let dispatched = LockedList<Int>()
                let dispatcher = Task.detached {
                    try await onThreadOfItsOwn("the dispatching thread", timeout: reliabilityTimeout) {
                        for index in 0..<perRound {
                            if index.isMultiple(of: 3) {
                                ledger.watch(store.dispatch(Nap(id: index, amount: index)), index: index, on: callbacks) { $0 }
                            } else {
                                ledger.watch(store.dispatch(Add(id: index, amount: 1)), index: index, on: callbacks) { _ in 1 }
                            }
                            dispatched.append(index)
                        }
                    }
                }
                try await dispatched.waitForCount(perRound / 4, timeout: reliabilityTimeout)
                let mode: ShutdownMode = round.isMultiple(of: 2) ? .finishWork : .cancelWork
                let report = await store.shutdown(mode, deadline: .seconds(60))
                let stateAtShutdown = store.state
                try await dispatcher.value

                #expect(report.stillRunning == 0)
                #expect(await ledger.allSettled(), "settled \(ledger.settledCount) of \(perRound)")
                #expect(ledger.settledMoreThanOnce == 0)
                #expect(store.activeSideEffectCount == 0)
                #expect(store.state == stateAtShutdown)
                let late = store.dispatch(Add(id: -1, amount: 1))
                #expect((try? await late.value) == nil)
                #expect(store.state == stateAtShutdown)
            }
        }

        /// A consumer with latest-only buffering that sleeps while 100,000 updates happen leaves the
        /// store holding a bounded number of states, and sees the final state when it wakes.
        ///
        /// Each state owns a counted kilobyte, so the count of those alive is the number of states
        /// held. Keeping every change for the sleeping consumer would hold all 100,000 (about 100 MiB,
        /// as the contrast below shows on a smaller run); latest-only keeps one. The bound leaves room
        /// for the store's own queue of changes for its listeners, at most one chunk of 1,000 here.
        @Test func latestOnlyBuffering_100000UpdatesWhileTheConsumerSleeps_memoryStaysBounded() async throws {
            let census = Census()
            let result = try await sleepingConsumer(buffering: .latestOnly, updates: 100_000, census: census)
            print("LifetimeStorm: latest-only consumer, 100,000 updates of 1 KiB states: states alive per 10,000 \(result.aliveSamples)")
            let most = result.aliveSamples.max() ?? 0
            #expect(most <= 2 * Self.chunk + 8, "the store held \(most) states of 1 KiB for a latest-only consumer")
            // The consumer wakes: the newest change is waiting for it.
            #expect(result.seen.count == 1)
            #expect(result.seen.last?.new.ticks == 100_000)
            #expect(result.seen.last?.new.payload?.bytes.first == UInt8(truncatingIfNeeded: 100_000))
        }

        /// The contrast that shows the census measures what the test above is about: with the default
        /// buffering, a consumer asleep through 10,000 updates has every one of them waiting for it.
        @Test func everyChangeBuffering_10000UpdatesWhileTheConsumerSleeps_holdsEveryState() async throws {
            let census = Census()
            let result = try await sleepingConsumer(buffering: .everyChange, updates: 10_000, census: census)
            print("LifetimeStorm: every-change consumer, 10,000 updates of 1 KiB states: states alive per 10,000 \(result.aliveSamples)")
            #expect((result.aliveSamples.max() ?? 0) >= 10_000)
            #expect(result.seen.count == 10_000)
            #expect(result.seen.map(\.new.ticks) == Array(1...10_000))
        }

        private static let chunk = 1_000

        /// Dispatches `updates` ticks in chunks while a `stateUpdates` consumer does not read, samples
        /// the census every 10 chunks and after a shutdown, then lets the consumer read everything.
        private func sleepingConsumer(
            buffering: StateUpdatesBuffering,
            updates total: Int,
            census: Census
        ) async throws -> (aliveSamples: [Int], seen: [(old: BulkyState, new: BulkyState)]) {
            let store = Store<BulkyState, EmptySideEffectDependencyContainer>(
                interceptors: [],
                stateInitializer: { BulkyState() },
                configuration: .init(listenersAsyncProvider: DispatchQueue(label: "ReliabilityTests.sleepingConsumer.listeners"))
            )
            let updates = store.stateUpdates(buffering: buffering)
            // A listener the updaters' promises wait for, added after the sequence: once a promise
            // settles, the sequence has been handed that change too, so the store's own queue of
            // changes for its listeners never holds more than one chunk.
            store.addListener { _, _ in }
            var samples: [Int] = []
            for start in stride(from: 0, to: total, by: Self.chunk) {
                var last: Promise<Void>?
                for _ in 0..<Self.chunk {
                    last = store.dispatch(BulkyTick(census: census))
                }
                _ = try await last?.settled(timeout: reliabilityTimeout)
                if (start / Self.chunk + 1).isMultiple(of: 10) {
                    samples.append(census.alive.value)
                }
            }
            await store.shutdown()
            samples.append(census.alive.value)
            var seen: [(old: BulkyState, new: BulkyState)] = []
            for await change in updates {
                seen.append(change)
            }
            return (samples, seen)
        }
    }
}
