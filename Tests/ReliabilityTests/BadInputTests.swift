import Dispatch
import Foundation
import Katana
import KatanaObservers
import KatanaTestSupport
import NotificationBridge
import Testing

#if canImport(Glibc)
import Glibc
#endif

extension ReliabilityStorms {
    /// Item 6: every kind of bad input, 1,000 times each, interleaved with valid items from several
    /// threads: each is rejected with its own error, nothing crashes, every valid item is applied.
    @Suite struct BadInputTests {
        static let repetitions = ReliabilityStorms.scaled(1_000)

        enum StoreCase: CaseIterable {
            case neither, both, foreignUpdater, wrongStateReturned, foreignStateSideEffect,
                 foreignDependenciesAsyncSideEffect, deallocatedStore

            /// The error its promise must be rejected with.
            var expectedError: KatanaError {
                let store = String(reflecting: LoadState.self)
                let context = String(reflecting: SideEffectContext<LoadState, LoadDependencies>.self)
                switch self {
                case .neither: return .unsupportedDispatchable(item: String(reflecting: NeitherKind.self))
                case .both: return .ambiguousDispatchable(item: String(reflecting: BothKinds.self))
                case .foreignUpdater:
                    return .stateTypeMismatch(
                        updater: String(reflecting: ForeignUpdater.self), expected: store,
                        actual: String(reflecting: ForeignState.self))
                case .wrongStateReturned:
                    return .invalidStateReturned(
                        updater: String(reflecting: ReturnsForeignState.self), expected: store,
                        actual: String(reflecting: ForeignState.self))
                case .foreignStateSideEffect:
                    return .sideEffectContextMismatch(
                        sideEffect: String(reflecting: ForeignStateSideEffect.self),
                        expected: String(reflecting: SideEffectContext<ForeignState, LoadDependencies>.self),
                        actual: context)
                case .foreignDependenciesAsyncSideEffect:
                    return .sideEffectContextMismatch(
                        sideEffect: String(reflecting: ForeignDependenciesAsyncSideEffect.self),
                        expected: String(reflecting: SideEffectContext<LoadState, EmptySideEffectDependencyContainer>.self),
                        actual: context)
                case .deallocatedStore: return .storeDeallocated(item: String(reflecting: Add.self))
                }
            }
        }

        @Test func storeBadInput_1000OfEachCase_interleavedWithValidItemsFrom6Threads_eachRejectedWithItsError() async throws {
            let reports = LockedValue<[String]>([])
            let foreignRuleFired = LockedValue(0)
            let ownRuleFired = LockedValue(0)
            let store = LoadStore(
                interceptors: [
                    ObserverInterceptor.observe(notificationCenter: NotificationCenter(), reporter: { message in
                        reports.withLock { $0.append(message) }
                    }) {
                        OnChange(of: \ForeignState.value) { _, _ in foreignRuleFired.withLock { $0 += 1 }; return nil }
                        OnChange(of: \LoadState.total) { _, _ in ownRuleFired.withLock { $0 += 1 }; return nil }
                    },
                ],
                stateInitializer: { LoadState() },
                configuration: .init(listenersAsyncProvider: DispatchQueue(label: "ReliabilityTests.badInput.listeners"))
            )
            let checker = SequenceChecker()
            store.addListener { old, new in checker.listener(old: old, new: new) }

            // A store that is gone, and the dispatch function its dependencies kept.
            var deadStore: Store<LoadState, KeepingDependencies>? = Store(interceptors: [])
            let deadDispatch = try #require(deadStore?.dependencies.dispatch)
            weak let deadWeak = deadStore
            deadStore = nil
            #expect(deadWeak == nil)

            // Even entries are valid `Add(1)`s, odd ones cycle through the bad cases.
            let cases = StoreCase.allCases
            let count = 2 * cases.count * Self.repetitions
            let ledger = PromiseLedger(count: count)
            let queue = CallbackQueues(label: "ReliabilityTests.badInput.promises")
            let threads = 6
            let finished = await runConcurrently(threads: threads) { thread in
                for index in stride(from: thread, to: count, by: threads) {
                    guard index % 2 == 1 else {
                        ledger.watch(store.dispatch(Add(id: index, amount: 1)), index: index, on: queue) { _ in nil }
                        continue
                    }
                    switch cases[(index / 2) % cases.count] {
                    case .neither: ledger.watch(store.anyDispatch(NeitherKind()), index: index, on: queue) { _ in nil }
                    case .both: ledger.watch(store.anyDispatch(BothKinds()), index: index, on: queue) { _ in nil }
                    case .foreignUpdater: ledger.watch(store.dispatch(ForeignUpdater()), index: index, on: queue) { _ in nil }
                    case .wrongStateReturned: ledger.watch(store.dispatch(ReturnsForeignState()), index: index, on: queue) { _ in nil }
                    case .foreignStateSideEffect: ledger.watch(store.dispatch(ForeignStateSideEffect()), index: index, on: queue) { _ in nil }
                    case .foreignDependenciesAsyncSideEffect:
                        ledger.watch(store.dispatch(ForeignDependenciesAsyncSideEffect()), index: index, on: queue) { _ in nil }
                    case .deallocatedStore: ledger.watch(deadDispatch(Add(id: index, amount: 1)), index: index, on: queue) { _ in nil }
                    }
                }
            }
            #expect(finished)
            #expect(await ledger.allSettled(), "settled \(ledger.settledCount) of \(count)")
            #expect(ledger.settledMoreThanOnce == 0)

            var wrong: [String] = []
            var rejectedPerCase: [String: Int] = [:]
            for index in 0..<count {
                let outcome = ledger.outcome(index)
                if index % 2 == 0 {
                    if outcome != .fulfilled(nil), wrong.count < 10 { wrong.append("valid \(index): \(String(describing: outcome))") }
                    continue
                }
                let badCase = cases[(index / 2) % cases.count]
                let expected = PromiseLedger.Outcome.rejected(PromiseLedger.describe(badCase.expectedError))
                if outcome == expected {
                    rejectedPerCase["\(badCase)", default: 0] += 1
                } else if wrong.count < 10 {
                    wrong.append("\(badCase) \(index): \(String(describing: outcome))")
                }
            }
            #expect(wrong.isEmpty, "\(wrong)")
            #expect(rejectedPerCase.count == cases.count)
            #expect(rejectedPerCase.values.allSatisfy { $0 == Self.repetitions }, "\(rejectedPerCase)")

            // Each error names the types involved and the fix.
            for badCase in cases {
                let description = badCase.expectedError.description
                #expect(description.contains("ReliabilityTests."), "\(badCase): \(description)")
            }
            #expect(StoreCase.foreignUpdater.expectedError.description.contains("Dispatch it to a Store<"))

            // The valid items were all applied, and nothing else touched the state.
            let valid = cases.count * Self.repetitions
            #expect(store.state == LoadState(seq: valid, total: valid))
            try await store.waitUntil("the listener to hear every valid item", timeout: reliabilityTimeout) { checker.callCount == valid }
            #expect(checker.problems.isEmpty, "\(checker.problems)")
            // The store keeps working.
            try await store.dispatch(Add(id: -1, amount: 1)).settled(timeout: reliabilityTimeout)
            #expect(store.state.total == valid + 1)

            // The observer rule for another state type: reported exactly once, never fired; the
            // store's own rule fired for every update.
            try await store.waitUntil("the store's own rule to fire for every update", timeout: reliabilityTimeout) { ownRuleFired.value == valid + 1 }
            #expect(foreignRuleFired.value == 0)
            let received = reports.value
            #expect(received.count == 1)
            #expect(received.first.map { $0.contains("ForeignState") && $0.contains("LoadState") } == true, "\(received)")
        }

        /// 1,000 stores, created from 4 threads, each with an observer rule written for another state
        /// type: each store reports it exactly once through its `reporter:`, the rule never fires and
        /// the store works.
        @Test func observerRuleForAnotherStateType_in1000StoresFrom4Threads_reportedOncePerStore() async throws {
            let stores = Self.repetitions
            let reports = LockedValue(Array(repeating: [String](), count: stores))
            let foreignRuleFired = LockedValue(0)
            let failures = LockedValue<[String]>([])
            let finished = await runConcurrently(threads: 4) { thread in
                for index in stride(from: thread, to: stores, by: 4) {
                    let store = LoadStore(interceptors: [
                        ObserverInterceptor.observe(notificationCenter: NotificationCenter(), reporter: { message in
                            reports.withLock { $0[index].append(message) }
                        }) {
                            OnChange(of: \ForeignState.value) { _, _ in foreignRuleFired.withLock { $0 += 1 }; return nil }
                        },
                    ])
                    do {
                        try store.dispatch(Add(id: index, amount: 2)).wait(timeout: reliabilityTimeout)
                        if store.state.total != 2 { failures.withLock { $0.append("store \(index): \(store.state)") } }
                    } catch {
                        failures.withLock { $0.append("store \(index): \(error)") }
                    }
                }
            }
            #expect(finished)
            #expect(failures.value.isEmpty, "\(failures.value.prefix(5))")
            let received = reports.value
            #expect(received.allSatisfy { $0.count == 1 }, "report counts \(Set(received.map(\.count)))")
            #expect(received.allSatisfy { $0.first?.contains("ForeignState") == true && $0.first?.contains("LoadState") == true })
            #expect(foreignRuleFired.value == 0)
        }

        enum BridgeCase: CaseIterable {
            case sigkill, sigstop, outOfRange, nonPositiveInterval, negativeDelay
        }

        /// The bridge's mistakes, 1,000 of each, from 4 threads, interleaved with valid one-shot
        /// timers: each throws its own `NotificationBridgeError`, every valid timer posts exactly once.
        @Test func bridgeBadInput_1000OfEachCase_interleavedWithValidTimersFrom4Threads_eachThrowsItsError() async throws {
            let center = NotificationCenter()
            let bridge = NotificationBridge(center: center)
            let validName = Notification.Name("ReliabilityTests.badInput.valid")
            let posts = LockedList<String>()
            let observation = center.addObserver(forName: validName, object: bridge, queue: nil) { _ in
                posts.append("posted")
            }
            defer { center.removeObserver(observation) }

            let cases = BridgeCase.allCases
            let count = 2 * cases.count * Self.repetitions
            let outOfRange: [Int32] = [0, -1, Int32(NSIG), 1_000]
            let nonPositive: [Duration] = [.zero, .seconds(-1), .nanoseconds(-1)]
            let negative: [Duration] = [.milliseconds(-1), .nanoseconds(-1), .seconds(-3600)]
            let valid = NotificationBridge.validSignals
            let results = LockedValue(Array<String?>(repeating: nil, count: count))
            let expected = LockedValue(Array<String?>(repeating: nil, count: count))
            let validCreated = LockedValue(0)
            let finished = await runConcurrently(threads: 4) { thread in
                for index in stride(from: thread, to: count, by: 4) {
                    let step = index / 2
                    let want: NotificationBridgeError?
                    let outcome: String
                    do {
                        if index % 2 == 0 {
                            want = nil
                            try bridge.post(validName, after: .zero)
                            validCreated.withLock { $0 += 1 }
                        } else {
                            switch cases[step % cases.count] {
                            case .sigkill:
                                want = .signalCannotBeCaught(SIGKILL)
                                try bridge.post(validName, onSignal: SIGKILL)
                            case .sigstop:
                                want = .signalCannotBeCaught(SIGSTOP)
                                try bridge.post(validName, onSignals: [SIGSTOP])
                            case .outOfRange:
                                let signal = outOfRange[step % outOfRange.count]
                                want = .signalOutOfRange(signal, validRange: valid)
                                try bridge.post(validName, onSignal: signal)
                            case .nonPositiveInterval:
                                let interval = nonPositive[step % nonPositive.count]
                                want = .nonPositiveInterval(interval)
                                try bridge.post(validName, every: interval)
                            case .negativeDelay:
                                let delay = negative[step % negative.count]
                                want = .negativeDelay(delay)
                                if step % 2 == 0 {
                                    try bridge.post(validName, after: delay)
                                } else {
                                    try bridge.post(validName, every: .seconds(1), firstFireAfter: delay)
                                }
                            }
                        }
                        outcome = "ok"
                    } catch let error as NotificationBridgeError {
                        outcome = "\(error)"
                    } catch {
                        outcome = "other \(error)"
                    }
                    results.withLock { $0[index] = outcome }
                    expected.withLock { $0[index] = want.map { "\($0)" } ?? "ok" }
                }
            }
            #expect(finished)
            let got = results.value
            let want = expected.value
            let mismatches = (0..<count).filter { got[$0] != want[$0] }
            #expect(mismatches.isEmpty, "\(mismatches.prefix(5).map { "\($0): \(got[$0] ?? "nil") != \(want[$0] ?? "nil")" })")
            #expect(got.filter { $0 == "ok" }.count == cases.count * Self.repetitions)

            // Every valid one-shot timer posted exactly once, and then let go of its subscription.
            let validCount = cases.count * Self.repetitions
            #expect(validCreated.value == validCount)
            #expect((try? await posts.waitForCount(validCount, timeout: reliabilityTimeout)) != nil, "posted \(posts.count) of \(validCount)")
            await drain(bridge.queue)
            #expect(posts.count == validCount)
            // A one-shot lets go of its subscription once its post has returned: nothing signals it.
            try await poll("every one-shot to let go of its subscription", timeout: reliabilityTimeout) { bridge.activeSubscriptions.isEmpty }
        }
    }
}
