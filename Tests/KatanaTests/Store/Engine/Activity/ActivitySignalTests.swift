import Foundation
import Testing
@testable import Katana
import KatanaTestSupport

/// The activity signal with real tasks: a wait ends on the poke that makes the store quiet, at its
/// deadline, or when its task is cancelled.
@Suite struct ActivitySignalTests {
    @Test func aWaitEndsWithThePokeThatFollowsTheChange() async throws {
        let signal = ActivitySignal()
        let quiet = LockedValue(false)
        let waiting = Task {
            await signal.wait(until: .now + defaultTestTimeout) { quiet.value }
        }
        // What is under test is the signal itself: whether it is watched is polled.
        try await poll("the wait to begin") { signal.isWatched }
        quiet.withLock { $0 = true }
        signal.pokeIfWatched()
        #expect(await waiting.value == .quiet)
        #expect(!signal.isWatched)
    }

    @Test func withoutAPoke_theWaitEndsAtItsDeadline() async {
        let signal = ActivitySignal()
        let start = ContinuousClock.now
        let result = await signal.wait(until: start + .milliseconds(50)) { false }
        #expect(result == .deadlinePassed)
        #expect(ContinuousClock.now - start >= .milliseconds(50))
    }

    @Test func aCancelledTask_stopsWaiting_unlessItAskedToIgnoreIt() async throws {
        let signal = ActivitySignal()
        let waiting = Task {
            await signal.wait(until: .now + defaultTestTimeout) { false }
        }
        try await poll("the wait to begin") { signal.isWatched }
        waiting.cancel()
        #expect(await waiting.value == .cancelled)

        let ignoring = Task {
            await signal.wait(until: .now + .milliseconds(100), returningOnCancellation: false) { false }
        }
        ignoring.cancel()
        #expect(await ignoring.value == .deadlinePassed)
    }

    @Test func aQuietStore_returnsAtOnce_withoutWaiting() async {
        let signal = ActivitySignal()
        #expect(await signal.wait(until: .now) { true } == .quiet)
    }
}
