import Dispatch
import Foundation
import Katana
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

/// A state whose every value owns a kilobyte of its own, so that keeping many states costs memory.
struct BulkyState: State, Equatable {
    var ticks = 0
    var payload: [UInt8] = []
}

/// Counts a tick and gives the new state a payload of its own.
struct BulkyTick: StateUpdater {
    func updateState(_ state: inout BulkyState) {
        state.ticks += 1
        state.payload = [UInt8](repeating: UInt8(truncatingIfNeeded: state.ticks), count: 1024)
    }
}

/// Cancellation and shutdown racing with dispatches, and the memory a slow consumer costs.
@Suite struct LifetimeStormTests {
    /// 10,000 dispatches of updaters and side effects, each cancelled by another thread at
    /// whatever point it has reached: every promise settles exactly once, an updater is applied
    /// exactly when its promise is fulfilled, and no side effect is left running.
    @Test func cancelDispatchRaces_10000_everyPromiseSettlesExactlyOnce() async throws {
        try await underSharedGate {
            let count = 10_000
            let store = LoadStore(
                interceptors: [],
                stateInitializer: { LoadState() },
                configuration: .init(listenersAsyncProvider: DispatchQueue(label: "ReliabilityTests.cancelStorm.listeners"))
            )
            let ledger = PromiseLedger(count: count)
            let callbacks = DispatchQueue(label: "ReliabilityTests.cancelStorm.callbacks", attributes: .concurrent)
            let cancellers = Shared<[@Sendable () -> Void]>([])
            let updaterAmounts = Shared<[Int: Int]>([:])

            let finished = await runConcurrently(threads: 2) { thread in
                if thread == 0 {
                    var random = SplitMix(seed: 14)
                    for index in 0..<count {
                        switch Int.random(in: 0..<4, using: &random) {
                        case 0, 1:
                            let amount = Int.random(in: 1...9, using: &random)
                            updaterAmounts.mutate { $0[index] = amount }
                            let promise = store.dispatch(Add(id: index, amount: amount))
                            ledger.watch(promise, index: index, on: callbacks) { _ in amount }
                            cancellers.mutate { $0.append { promise.cancel() } }
                        case 2:
                            let promise = store.dispatch(Nap(id: index, amount: index))
                            ledger.watch(promise, index: index, on: callbacks) { $0 }
                            cancellers.mutate { $0.append { promise.cancel() } }
                        default:
                            let promise = store.dispatch(Touch(id: index))
                            ledger.watch(promise, index: index, on: callbacks) { _ in nil }
                            cancellers.mutate { $0.append { promise.cancel() } }
                        }
                    }
                } else {
                    // Cancels each dispatch as soon as it exists, racing with its handling.
                    // Takes only the new ones (holding a copy of the whole list would make each append
                    // copy it), and naps briefly when there are none, so that it does not take a core
                    // from the dispatching thread.
                    var next = 0
                    let deadline = ContinuousClock.now + reliabilityTimeout
                    while next < count, ContinuousClock.now < deadline {
                        let batch = cancellers.mutate { list in Array(list[next...]) }
                        for cancel in batch {
                            cancel()
                        }
                        next += batch.count
                        if batch.isEmpty {
                            usleep(50)
                        }
                    }
                }
            }
            #expect(finished)
            #expect(await waitUntil { ledger.settledCount == count })
            #expect(ledger.settledMoreThanOnce == 0)
            #expect(await waitUntil { store.activeSideEffectCount == 0 })

            // The state holds exactly the updaters whose promises were fulfilled.
            var expectedTotal = 0
            var applied = 0
            var cancelled = 0
            for (index, amount) in updaterAmounts.get() {
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
    }

    /// Twenty stores, each shut down (alternately finishing and cancelling work) while a thread
    /// keeps dispatching to it: every promise settles exactly once, nothing changes the state
    /// after the shutdown returns, and every later dispatch is refused.
    @Test func shutdownWhileDispatching_20Stores_everyPromiseSettles_andNothingRunsAfterwards() async throws {
        try await underSharedGate {
            for round in 0..<20 {
                let store = LoadStore(
                    interceptors: [],
                    stateInitializer: { LoadState() },
                    configuration: .init(listenersAsyncProvider: DispatchQueue(label: "ReliabilityTests.shutdownStorm.listeners"))
                )
                let perRound = 2_000
                let ledger = PromiseLedger(count: perRound)
                let callbacks = DispatchQueue(label: "ReliabilityTests.shutdownStorm.callbacks", attributes: .concurrent)
                let dispatched = Counter()
                let dispatcher = Task.detached {
                    try await onThreadOfItsOwn {
                        for index in 0..<perRound {
                            if index.isMultiple(of: 3) {
                                ledger.watch(store.dispatch(Nap(id: index, amount: index)), index: index, on: callbacks) { $0 }
                            } else {
                                ledger.watch(store.dispatch(Add(id: index, amount: 1)), index: index, on: callbacks) { _ in 1 }
                            }
                            dispatched.increment()
                        }
                    }
                }
                #expect(await waitUntil { dispatched.value >= perRound / 4 })
                let mode: ShutdownMode = round.isMultiple(of: 2) ? .finishWork : .cancelWork
                let report = await store.shutdown(mode, deadline: .seconds(60))
                let stateAtShutdown = store.state
                try await dispatcher.value

                #expect(report.stillRunning == 0)
                #expect(await waitUntil { ledger.settledCount == perRound })
                #expect(ledger.settledMoreThanOnce == 0)
                #expect(store.activeSideEffectCount == 0)
                #expect(store.state == stateAtShutdown)
                let late = store.dispatch(Add(id: -1, amount: 1))
                #expect((try? await late.value) == nil)
                #expect(store.state == stateAtShutdown)
            }
        }
    }

    /// A consumer with latest-only buffering that sleeps while 100,000 updates happen keeps the
    /// resident set within a bound, and sees the final state when it wakes.
    ///
    /// Each state owns 1 KiB, so keeping every change for the sleeping consumer would hold about
    /// 100 MiB; latest-only keeps one change. The bound (20 MiB, 24 MiB under the thread sanitizer)
    /// is the memory soak's, for the same reason: the process's other allocations move the
    /// resident set too.
    @Test func latestOnlyBuffering_100000UpdatesWhileTheConsumerSleeps_memoryStaysBounded() async throws {
        let ran: Void? = try await ProcessMemoryGate.exclusive {
            let store = Store<BulkyState, EmptySideEffectDependencyContainer>(
                interceptors: [],
                stateInitializer: { BulkyState() },
                configuration: .init(listenersAsyncProvider: DispatchQueue(label: "ReliabilityTests.latestOnly.listeners"))
            )
            let updates = store.stateUpdates(buffering: .latestOnly)
            // A listener the updaters' promises wait for, added after the sequence: once a promise
            // settles, the sequence has been handed that change too, so the store's own queue of
            // changes for its listeners never holds more than one chunk.
            store.addListener { _, _ in }
            let baseline = try #require(residentSetKiB())
            let total = 100_000
            let chunk = 1_000
            var samples: [Int] = []
            for start in stride(from: 0, to: total, by: chunk) {
                try await onThreadOfItsOwn {
                    var last: Promise<Void>?
                    for _ in 0..<chunk {
                        last = store.dispatch(BulkyTick())
                    }
                    try last?.wait(timeout: reliabilityTimeout)
                }
                if (start / chunk).isMultiple(of: 10) {
                    samples.append(try #require(residentSetKiB()) - baseline)
                }
            }
            await store.shutdown()
            samples.append(try #require(residentSetKiB()) - baseline)
            let growth = samples.max() ?? 0
            // The consumer wakes: the newest change is waiting for it.
            var seen: (old: BulkyState, new: BulkyState)?
            for await change in updates {
                seen = change
            }
            print("LifetimeStorm: latest-only consumer, 100,000 updates of 1 KiB states: RSS growth per 10,000 (KiB) \(samples)")
            #expect(growth <= MemorySoakTests.boundKiB, "RSS grew by \(growth) KiB")
            #expect(seen?.new.ticks == total)
            #expect(seen?.new.payload.first == UInt8(truncatingIfNeeded: total))
        }
        #expect(ran != nil, "the memory gate was not obtained in time")
    }
}
