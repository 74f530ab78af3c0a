import Foundation
@testable import katana_service_demo
import Testing

/// The heartbeat timer's wrapper: a shutdown's `stop()` racing a reload's `schedule(every:)` never
/// leaves a timer behind (run it under `--sanitize=thread` too).
@Suite struct HeartbeatTests {
    @Test func scheduleThenStop_leavesNoTimer() throws {
        let dependencies = DemoDependencies(options: CommandLineOptions())
        #expect(try dependencies.heartbeat.schedule(every: .seconds(3600)))
        #expect(dependencies.bridge.activeSubscriptions.count == 1)
        #expect(try dependencies.heartbeat.schedule(every: .seconds(1800)))
        #expect(dependencies.bridge.activeSubscriptions.count == 1)
        #expect(try !dependencies.heartbeat.schedule(every: .seconds(1800)))
        dependencies.heartbeat.stop()
        #expect(dependencies.bridge.activeSubscriptions.isEmpty)
        #expect(try !dependencies.heartbeat.schedule(every: .seconds(60)))
        #expect(dependencies.bridge.activeSubscriptions.isEmpty)
    }

    @Test func stopRacingReschedules_leavesNoTimer() async throws {
        for _ in 0..<200 {
            let dependencies = DemoDependencies(options: CommandLineOptions())
            let heartbeat = dependencies.heartbeat
            let rescheduled = Task.detached {
                for minutes in 1...20 {
                    try heartbeat.schedule(every: .seconds(60 * minutes))
                }
            }
            let stopped = Task.detached { heartbeat.stop() }
            try await rescheduled.value
            await stopped.value
            #expect(dependencies.bridge.activeSubscriptions.isEmpty)
        }
    }
}
