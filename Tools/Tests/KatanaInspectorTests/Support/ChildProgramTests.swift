import Foundation
import KatanaTestSupport
import Testing

/// What a test learns when a child program ends before the test is done with it.
@Suite struct ChildProgramTests {
    @Test func aProgramThatEndedEarly_isReportedWithItsStatusAndWhatItWroteOnBothStreams() async throws {
        let program = try ChildProgram.start(URL(fileURLWithPath: "/bin/sh"), ["-c", "echo listening; echo gave up >&2; exit 3"])
        defer { program.stop() }
        try await program.untilItEnds()
        let error = try #require(throws: ChildProgram.Ended.self) { try program.cpuTime() }
        #expect(error.report.contains("sh ended (exit status 3)"))
        #expect(error.report.contains("it printed: listening"))
        #expect(error.report.contains("on its other stream: gave up"))
    }

    @Test func aRunningProgramsCPUTimeIsRead() async throws {
        let program = try ChildProgram.start(URL(fileURLWithPath: "/bin/sh"), ["-c", "echo ready; exec sleep 30"])
        defer { program.stop() }
        try await program.untilItPrints("ready", "the shell to start")
        #expect(try program.cpuTime() >= .zero)
        #expect(program.endReport.contains("still running"))
    }
}
