import Foundation
import NotificationBridge
import Testing
import TestProgramSupport

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The probe as built next to the test binary.
private func faultProbe() -> TestProgram? {
    TestProgram(builtNextToTheTests: "notification-bridge-fault-probe")
}

private let faultSignalsByName: [String: Int32] = ["SIGILL": SIGILL, "SIGTRAP": SIGTRAP]

/// A crash must stay a crash: subscribing to a synchronous fault signal would make the faulting
/// instruction run again and again instead of ending the process, so the bridge refuses it.
@Suite struct FaultSignalProbeTests {
    @Test
    func theProbeIsBuiltNextToTheTests() {
        #expect(faultProbe() != nil)
    }

    @Test(arguments: [["SIGILL"], ["SIGTRAP"], ["SIGUSR1", "SIGILL", "SIGTRAP"]])
    func crashAfterAskingForAFaultSignal_endsTheProcessBySignal(signalNames: [String]) async throws {
        let probe = try #require(faultProbe())
        let run = try await probe.run(signalNames, timeout: .seconds(30))

        #expect(!run.hung, "the crash hung instead of ending the process; output: \(run.errorOutput)")
        #expect(run.exitCode == nil, "exited with \(run.exitCode.map(String.init) ?? "-"): \(run.errorOutput)")
        // Unwrapping nil raises SIGILL on x86-64 and SIGTRAP on arm64.
        #expect(run.terminatingSignal == SIGILL || run.terminatingSignal == SIGTRAP,
                "ended by signal \(run.terminatingSignal.map(String.init) ?? "none")")
        // The refusal names the first fault signal of the list.
        let firstFault = try #require(signalNames.lazy.compactMap { faultSignalsByName[$0] }.first)
        #expect(run.errorOutput.contains("refused: \(NotificationBridgeError.synchronousFaultSignal(firstFault))"),
                "\(run.errorOutput)")
        #expect(run.errorOutput.contains("trapping"))
        #expect(!run.errorOutput.contains("subscribed"))
    }
}
