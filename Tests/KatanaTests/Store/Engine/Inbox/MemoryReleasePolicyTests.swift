import Testing
@testable import Katana
import KatanaTestSupport

private typealias Policy = MemoryRelease.Policy

/// When the process gives the memory a burst freed back to the system: after a burst's worth of
/// items, once the reports have stopped for a moment, never more than once per interval.
@Suite struct MemoryReleasePolicyTests {
    let start = ContinuousClock.now

    @Test func fewItems_scheduleNothing() {
        var policy = Policy()
        #expect(policy.handled(Policy.burstSize - 1, at: start) == .none)
        #expect(policy.itemsSinceRelease == Policy.burstSize - 1)
    }

    @Test func aBurstsWorth_schedulesOneCheck_afterTheQuietPeriod() {
        var policy = Policy()
        #expect(policy.handled(Policy.burstSize, at: start) == .scheduleCheck(after: Policy.quietPeriod))
        // Already scheduled: more reports schedule nothing more.
        #expect(policy.handled(Policy.burstSize, at: start) == .none)
    }

    @Test func aCheckWhileReportsKeepComing_waitsForTheBurstToEnd() {
        var policy = Policy()
        _ = policy.handled(Policy.burstSize, at: start)
        _ = policy.handled(10, at: start + .milliseconds(90))
        #expect(policy.check(at: start + .milliseconds(100)) == .checkAgain(after: .milliseconds(90)))
        #expect(policy.check(at: start + .milliseconds(190)) == .release)
    }

    @Test func aReleaseResetsTheCount_andTheNextOneWaitsForTheInterval() {
        var policy = Policy()
        _ = policy.handled(Policy.burstSize, at: start)
        #expect(policy.check(at: start + Policy.quietPeriod) == .release)
        let released = start + Policy.quietPeriod
        policy.released(at: released)
        #expect(policy.itemsSinceRelease == 0)
        #expect(policy.handled(Policy.burstSize, at: released + .milliseconds(10)) == .scheduleCheck(after: Policy.quietPeriod))
        let check = released + .milliseconds(10) + Policy.quietPeriod
        #expect(policy.check(at: check) == .checkAgain(after: Policy.minimumInterval - (check - released)))
        #expect(policy.check(at: released + Policy.minimumInterval) == .release)
    }
}
