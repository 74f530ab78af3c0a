import Dispatch
import Foundation
import Katana
import KatanaLegacy
import Testing

extension ReliabilityStorms {
    /// Items 1 and 2: many threads dispatching a mix of every kind of item through a full chain of
    /// interceptors, observer rules and listeners, without and with injected faults.
    @Suite struct MixedLoadTests {
        @Test func mixedLoad_8ThreadsX25000_everyUpdateAppliedEveryPromiseSettledEveryTransitionSeen() async throws {
            let harness = LoadHarness(threads: 8, perThread: ReliabilityStorms.scaled(25_000), faults: false, slowListeners: 0)
            try await runAndCheck(harness)
        }

        @Test func faults_throwingSideEffectsBlockedAndRejectedItemsSlowListeners_stateConsistentAndStoreKeepsServing() async throws {
            let harness = LoadHarness(threads: 8, perThread: ReliabilityStorms.scaled(10_000), faults: true, slowListeners: 3)
            // The plan really contains the faults it claims: 10% of side effects throw, 5% of items
            // are blocked or rejected by an interceptor.
            let sideEffects = harness.items.filter { !$0.isUpdater }
            let throwing = sideEffects.filter(\.sideEffectFails).count
            let blocked = harness.items.filter { $0.fault == .block }.count
            let rejected = harness.items.filter { $0.fault == .reject }.count
            #expect(abs(Double(throwing) / Double(sideEffects.count) - 0.10) < 0.01, "throwing \(throwing) of \(sideEffects.count)")
            #expect(abs(Double(blocked + rejected) / Double(harness.items.count) - 0.05) < 0.005, "blocked \(blocked), rejected \(rejected)")
            #expect(blocked > 0 && rejected > 0)
            #expect(harness.items.contains { $0.fault == .block && $0.isUpdater })
            #expect(harness.items.contains { $0.fault == .block && !$0.isUpdater })

            try await runAndCheck(harness)

            // The store keeps serving (negative ids are never faulted; -10 % 5 == 0 fires one rule): every kind of item still works after the faults.
            let store = try #require(harness.store)
            let before = store.state
            try await store.dispatch(Add(id: -1, amount: 5)).settled(timeout: reliabilityTimeout)
            #expect(try await store.dispatch(Compute(id: -10, amount: 4)).settled(timeout: reliabilityTimeout) == 8)
            #expect(try await store.dispatch(AsyncCompute(id: -3, amount: 2)).settled(timeout: reliabilityTimeout) == 3)
            #expect(try await store.dispatch(AsyncDeposit(id: -4, amount: 3)).settled(timeout: reliabilityTimeout) == 3)
            await #expect(throws: InjectedFault(id: -5)) {
                try await store.dispatch(Touch(id: -5, fails: true)).settled(timeout: reliabilityTimeout)
            }
            // Add(5), the Compute's rule RuleAdd(1), the deposit's RuleAdd(3).
            try await store.waitUntil("the three updates", timeout: reliabilityTimeout) { store.state.seq == before.seq + 3 }
            #expect(store.state.total == before.total + 5 + 1 + 3)
        }

        private func runAndCheck(_ harness: LoadHarness) async throws {
            let store = try #require(harness.store)
            #expect(harness.observerRuleCount == LoadHarness.ruleCount)
            #expect(await harness.dispatchAll(), "dispatching threads did not finish in time")

            let count = harness.items.count
            #expect(await harness.ledger.allSettled(), "settled \(harness.ledger.settledCount) of \(count)")
            let expected = harness.expected
            // The listeners and the rules' reactions are the store's work too: its activity signal
            // wakes the wait each time they run out of it.
            try await store.waitUntil("seq \(expected.seq), every listener call and rule reaction", timeout: reliabilityTimeout) {
                store.state.seq == expected.seq
                    && harness.listeners.allSatisfy { $0.callCount >= expected.seq }
                    && (harness.seqChangeHits + harness.stateChangeHits).allSatisfy { $0.value >= expected.seq }
            }

            // Final state: the sum of all updates.
            #expect(store.state == LoadState(seq: expected.seq, total: expected.total))

            // Every promise settled exactly once, with the right outcome.
            #expect(harness.ledger.settledMoreThanOnce == 0)
            var wrong: [String] = []
            for (index, item) in harness.items.enumerated() {
                let outcome = harness.ledger.outcome(index)
                if outcome != item.expectedOutcome, wrong.count < 10 {
                    wrong.append("item \(item.id) \(item.kind): \(String(describing: outcome)), expected \(item.expectedOutcome)")
                }
            }
            #expect(wrong.isEmpty, "\(wrong)")

            // Give stray duplicates a moment to show up, then check the counts are exact.
            try await Task.sleep(for: .milliseconds(100))
            #expect(harness.ledger.settledMoreThanOnce == 0)
            for (index, listener) in harness.listeners.enumerated() {
                #expect(listener.problems.isEmpty, "listener \(index): \(listener.problems)")
                #expect(listener.callCount == expected.seq, "listener \(index)")
                #expect(listener.lastSeq == expected.seq, "listener \(index)")
            }
            for hits in harness.seqChangeHits + harness.stateChangeHits {
                #expect(hits.value == expected.seq)
            }
            let legacyHandled = harness.items.filter { $0.kind == .legacyAdd && $0.passesFaultInterceptor }.count
            for hits in harness.legacyRuleHits {
                #expect(hits.value == legacyHandled)
            }

            // Every interceptor saw every item that reached it exactly once.
            let nested = expected.nested
            #expect(harness.counting[0].seen.value == expected.direct + nested)
            for interceptor in harness.counting.dropFirst() {
                #expect(interceptor.seen.value == expected.throughChain + nested)
            }
            #expect(harness.middlewareSeen.value == expected.throughChain + nested)
            #expect(harness.loggedLines.value == expected.throughChain)
        }
    }
}
