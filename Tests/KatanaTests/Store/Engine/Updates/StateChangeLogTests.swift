import Dispatch
import Testing
@testable import Katana
import KatanaTestSupport

/// The (old, new) pairs the runs describe, as listeners receive them.
private func pairs(_ runs: [ChangeRun<CounterState>]) -> [Change] {
    runs.flatMap { run in
        zip(run.states, run.states.dropFirst()).map { Change($0.counter, $1.counter) }
    }
}

private func state(_ counter: Int) -> CounterState {
    CounterState(counter: counter, applied: [])
}

/// Listeners get their changes from runs of consecutive states, one state per change.
@Suite struct StateChangeLogTests {
    @Test func consecutiveChanges_makeOneRunAndContinueIntoTheNextBatch() {
        var log = StateChangeLog<CounterState>()
        log.record(old: state(0), new: state(1), continuesRun: false, settling: nil)
        log.record(old: state(1), new: state(2), continuesRun: true, settling: nil)
        #expect(log.hasChanges)
        let first = log.takeRuns(continuesRun: true)
        #expect(first.map(\.states.count) == [3])
        #expect(pairs(first) == [Change(0, 1), Change(1, 2)])
        #expect(!log.hasChanges)

        log.record(old: state(2), new: state(3), continuesRun: true, settling: nil)
        #expect(pairs(log.takeRuns(continuesRun: true)) == [Change(2, 3)])
    }

    @Test func aChangeNobodyRecorded_startsANewRunFromTheRecordedOldState() {
        var log = StateChangeLog<CounterState>()
        log.record(old: state(0), new: state(1), continuesRun: false, settling: nil)
        // The state went from 1 to 5 unrecorded.
        log.record(old: state(5), new: state(6), continuesRun: false, settling: nil)
        #expect(pairs(log.takeRuns(continuesRun: true)) == [Change(0, 1), Change(5, 6)])
    }

    @Test func longBursts_areSplitIntoBoundedRunsWithoutLosingAChange() {
        var log = StateChangeLog<CounterState>()
        let changes = StateChangeLog<CounterState>.runLength * 3 + 7
        for counter in 0 ..< changes {
            log.record(old: state(counter), new: state(counter + 1), continuesRun: counter > 0, settling: nil)
        }
        let runs = log.takeRuns(continuesRun: true)
        #expect(runs.count > 1)
        #expect(runs.allSatisfy { $0.states.count <= StateChangeLog<CounterState>.runLength + 2 })
        #expect(pairs(runs) == (0 ..< changes).map { Change($0, $0 + 1) })
    }

    @Test func reusedBuffers_carryNothingOver() {
        var log = StateChangeLog<CounterState>()
        log.record(old: state(0), new: state(1), continuesRun: false, settling: nil)
        var returned = log.takeRuns(continuesRun: false)
        for index in returned.indices {
            returned[index].empty()
        }
        log.addSpare(&returned, keepingAtMost: 4)
        #expect(returned.isEmpty)
        log.record(old: state(1), new: state(2), continuesRun: false, settling: nil)
        log.record(old: state(9), new: state(10), continuesRun: false, settling: nil)
        #expect(pairs(log.takeRuns(continuesRun: true)) == [Change(1, 2), Change(9, 10)])
    }

    @Test func eachChange_carriesThePromiseItSettles_evenAcrossRuns() {
        var log = StateChangeLog<CounterState>()
        let changes = StateChangeLog<CounterState>.runLength + 5
        let promises = (0 ..< changes).map { _ in Promise<Void>.pending() }
        for counter in 0 ..< changes {
            // Every other change has nobody waiting for it.
            let promise = counter.isMultiple(of: 2) ? promises[counter].handle : nil
            log.record(old: state(counter), new: state(counter + 1), continuesRun: counter > 0, settling: promise)
        }
        let runs = log.takeRuns(continuesRun: true)
        #expect(runs.allSatisfy { $0.promises.count == $0.changeCount })
        let carried = runs.flatMap(\.promises).map { promise in
            promise.flatMap { handle in promises.firstIndex { ObjectIdentifier($0.core) == ObjectIdentifier(handle.core) } }
        }
        #expect(carried == (0 ..< changes).map { $0.isMultiple(of: 2) ? $0 : nil })
    }

    @Test func listenerAddedAfterUnrecordedUpdates_firstHearsTheStateThoseUpdatesLeft() async throws {
        let store = makeStore()
        for amount in 1 ... 5 {
            try await store.dispatch(Increment(amount: amount)).settled()
        }
        let heard = LockedList<Change>()
        let unsubscribe = store.addListener { old, new in heard.append(Change(old.counter, new.counter)) }
        store.dispatch(Increment(amount: 100))
        try await heard.waitUntil("a call") { $0.count == 1 }
        unsubscribe()
        for _ in 1 ... 3 {
            try await store.dispatch(Increment(amount: 1)).settled()
        }
        let later = LockedList<Change>()
        store.addListener { old, new in later.append(Change(old.counter, new.counter)) }
        store.dispatch(Increment(amount: 1_000))
        try await later.waitUntil("a call") { $0.count == 1 }
        #expect(heard.all == [Change(15, 115)])
        #expect(later.all == [Change(118, 1_118)])
    }

    @Test func burstLongerThanARun_reachesTheListenerChangeByChange() async throws {
        let store = makeStore()
        let heard = LockedList<Change>()
        store.addListener { old, new in heard.append(Change(old.counter, new.counter)) }
        let count = StateChangeLog<CounterState>.runLength * 20 + 3
        for _ in 0 ..< count {
            store.dispatch(Increment())
        }
        try await heard.waitUntil("\(count) calls") { $0.count == count }
        #expect(heard.all == (0 ..< count).map { Change($0, $0 + 1) })
    }
}
