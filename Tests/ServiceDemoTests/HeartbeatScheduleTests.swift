@testable import katana_service_demo
import Testing

/// The heartbeat's state machine, transition by transition, without threads or timers.
@Suite struct HeartbeatScheduleTests {
    @Test func firstSchedule_startsATimer() {
        var schedule = HeartbeatSchedule()
        #expect(schedule.schedule(every: .milliseconds(250)) == .start(interval: .milliseconds(250)))
        #expect(schedule.phase == .ticking(interval: .milliseconds(250)))
    }

    @Test func sameInterval_keepsTheTimer() {
        var schedule = HeartbeatSchedule()
        _ = schedule.schedule(every: .milliseconds(250))
        #expect(schedule.schedule(every: .milliseconds(250)) == .none)
        #expect(schedule.phase == .ticking(interval: .milliseconds(250)))
    }

    @Test func otherInterval_recreatesTheTimer() {
        var schedule = HeartbeatSchedule()
        _ = schedule.schedule(every: .seconds(3600))
        #expect(schedule.schedule(every: .milliseconds(20)) == .start(interval: .milliseconds(20)))
        #expect(schedule.phase == .ticking(interval: .milliseconds(20)))
    }

    @Test func stopWhileTicking_cancelsTheTimer() {
        var schedule = HeartbeatSchedule()
        _ = schedule.schedule(every: .milliseconds(250))
        #expect(schedule.stop() == .cancel)
        #expect(schedule.phase == .stopped)
    }

    @Test func stopBeforeAnySchedule_hasNothingToCancel_butStillStops() {
        var schedule = HeartbeatSchedule()
        #expect(schedule.stop() == .none)
        #expect(schedule.phase == .stopped)
        #expect(schedule.schedule(every: .milliseconds(250)) == .none)
    }

    @Test func scheduleAfterStop_doesNotBringTheTimerBack() {
        // A reload that finishes while the service shuts down.
        var schedule = HeartbeatSchedule()
        _ = schedule.schedule(every: .milliseconds(250))
        _ = schedule.stop()
        #expect(schedule.schedule(every: .milliseconds(20)) == .none)
        #expect(schedule.phase == .stopped)
    }

    @Test func secondStop_doesNothing() {
        var schedule = HeartbeatSchedule()
        _ = schedule.schedule(every: .milliseconds(250))
        _ = schedule.stop()
        #expect(schedule.stop() == .none)
        #expect(schedule.phase == .stopped)
    }

    @Test func timerThatFailedToStart_isStartedByTheNextSchedule_evenAtTheSameInterval() {
        var schedule = HeartbeatSchedule()
        _ = schedule.schedule(every: .milliseconds(250))
        schedule.timerFailedToStart()
        #expect(schedule.phase == .idle)
        #expect(schedule.schedule(every: .milliseconds(250)) == .start(interval: .milliseconds(250)))
    }

    @Test func timerFailureAfterStop_keepsTheHeartbeatStopped() {
        var schedule = HeartbeatSchedule()
        _ = schedule.stop()
        schedule.timerFailedToStart()
        #expect(schedule.phase == .stopped)
    }
}
