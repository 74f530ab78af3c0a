import Testing
@testable import Katana
import KatanaTestSupport

/// A store's shutdown progress, event by event, without threads.
@Suite struct ShutdownProgressTests {
    private let report = ShutdownReport(handled: 3, cancelled: 1, stillRunning: 0)

    @Test func firstBeginCarriesOut_laterOnesWait_andAfterTheEndTheyGetTheReport() {
        var progress = ShutdownProgress<String>()
        #expect(progress.phase == .running)
        #expect(progress.begin() == .carryOut)
        #expect(progress.phase == .shuttingDown)
        #expect(progress.begin() == .wait)
        #expect(progress.wait("second caller") == nil)
        #expect(progress.finish(with: report) == ["second caller"])
        #expect(progress.phase == .finished(report))
        #expect(progress.begin() == .finished(report))
        #expect(progress.wait("late caller") == report)
        #expect(progress.waiterCount == 0)
    }

    @Test func aWaiterBeforeAnyShutdown_isKeptUntilTheEnd_inOrder() {
        var progress = ShutdownProgress<String>()
        #expect(progress.wait("runUntilShutdown") == nil)
        #expect(progress.wait("another") == nil)
        #expect(progress.waiterCount == 2)
        #expect(progress.begin() == .carryOut)
        #expect(progress.finish(with: report) == ["runUntilShutdown", "another"])
        #expect(progress.waiterCount == 0)
    }

    @Test func reportDescription_isOneLine() {
        #expect(report.description == "handled 3, cancelled 1, still running 0")
    }
}
