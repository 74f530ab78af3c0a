@testable import KatanaTesting
import KatanaTestSupport
import Testing

/// `TestClock.onChange`: observers are told, after the clock's lock is let go, each time the clock
/// may have become idle or gained a sleeper, so a test store waits for its clock without polling.
@Suite struct TestClockObserverTests {
    // MARK: The storage, without threads

    @Test func jobFinished_callsEveryObserver_withTheLockLetGo() {
        let storage = TestClockStorage()
        let first = LockedList<Bool>()
        let second = LockedList<Bool>()
        // Reading the clock inside an observer would dead-lock if the lock were still held.
        storage.onChange { first.append(storage.read(\.isIdle)) }
        storage.onChange { second.append(storage.read(\.isIdle)) }
        storage.jobEnqueued()
        #expect(first.all.isEmpty)
        storage.jobFinished()
        #expect(first.all == [true])
        #expect(second.all == [true])
    }

    @Test func activityEnded_callsTheObservers() {
        let storage = TestClockStorage()
        let seen = LockedList<Bool>()
        storage.onChange { seen.append(storage.read(\.isIdle)) }
        storage.update { $0.activityBegan() }
        #expect(seen.all.isEmpty)
        storage.activityEnded()
        #expect(seen.all == [true])
    }

    @Test func anObserverAddedLater_isCalledForLaterChangesOnly() {
        let storage = TestClockStorage()
        let early = LockedList<String>()
        let late = LockedList<String>()
        storage.onChange { early.append("job") }
        storage.jobEnqueued()
        storage.jobFinished()
        storage.onChange { late.append("job") }
        storage.jobEnqueued()
        storage.jobFinished()
        #expect(early.all == ["job", "job"])
        #expect(late.all == ["job"])
    }

    // MARK: The clock, with tasks

    @Test(.enabled(if: clockExecutorIsAvailable, "the test clock needs task executors"))
    func onChange_isCalledWhenAJobOfTheClocksExecutorFinishes() async throws {
        let clock = TestClock(reporter: TestFailureRecorder().reporter)
        let (idleness, observed) = AsyncStream.makeStream(of: Bool.self)
        clock.onChange { observed.yield(clock.isIdle) }
        let job = startOnClock(clock) { 42 }
        // Ends at the first call that finds the clock idle: after the task's last job finished.
        let sawIdle = Task { () -> Bool in
            for await isIdle in idleness where isIdle {
                return true
            }
            return false
        }
        #expect(try await finished(sawIdle, "an observer call that finds the clock idle") == true)
        #expect(try await finished(job, "the task on the clock") == 42)
        observed.finish()
    }

    @Test func sleep_callsTheObserversWhenItRegisters() async throws {
        let clock = TestClock(reporter: TestFailureRecorder().reporter)
        let (sleeps, observed) = AsyncStream.makeStream(of: Int.self)
        clock.onChange { observed.yield(clock.pendingSleepCount) }
        let sleeper = Task { try await clock.sleep(for: .seconds(1)) }
        let sawSleeper = Task { () -> Bool in
            for await count in sleeps where count == 1 {
                return true
            }
            return false
        }
        defer { sleeper.cancel() }
        #expect(try await finished(sawSleeper, "an observer call that sees the sleeper") == true)
        observed.finish()
    }
}
