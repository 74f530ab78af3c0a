import Foundation
import NotificationBridge
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// How a run of `notification-bridge-fault-probe` ended.
private struct FaultProbeRun {
    /// The signal that ended the process, if a signal did.
    let terminatingSignal: Int32?
    /// The exit code, if the process exited.
    let exitCode: Int32?
    /// Whether the process was still running at the deadline (and was killed).
    let hung: Bool
    /// Everything it wrote to standard error.
    let errorOutput: String
}

/// The probe as built next to the test binary.
private func faultProbeURL() -> URL? {
    var directories: [URL] = []
    if let testBinary = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
        directories.append(URL(fileURLWithPath: testBinary).deletingLastPathComponent())
    }
    directories.append(contentsOf: Bundle.allBundles.map { $0.bundleURL.deletingLastPathComponent() })
    return directories
        .map { $0.appendingPathComponent("notification-bridge-fault-probe") }
        .first { FileManager.default.isExecutableFile(atPath: $0.path) }
}

/// Runs the probe with `signalNames`, killing it if it has not ended after `timeout`. Waits without
/// blocking a thread. Standard error goes to a file, and the Swift runtime's backtracer is off so
/// that the crash ends the process at once.
private func runFaultProbe(
    _ probe: URL, subscribingTo signalNames: [String], timeout: Duration = .seconds(30)
) async throws -> FaultProbeRun {
    let errorFile = FileManager.default.temporaryDirectory
        .appendingPathComponent("notification-bridge-fault-probe-\(UUID().uuidString).txt")
    _ = FileManager.default.createFile(atPath: errorFile.path, contents: nil)
    defer { try? FileManager.default.removeItem(at: errorFile) }
    let process = Process()
    process.executableURL = probe
    process.arguments = signalNames
    var environment = ProcessInfo.processInfo.environment
    environment["SWIFT_BACKTRACE"] = "enable=no"
    process.environment = environment
    process.standardOutput = FileHandle.nullDevice
    process.standardError = try FileHandle(forWritingTo: errorFile)
    try process.run()

    let ended = await waitUntil(timeout: timeout) { !process.isRunning }
    if !ended {
        kill(process.processIdentifier, SIGKILL)
        _ = await waitUntil(timeout: .seconds(5)) { !process.isRunning }
    }
    let output = String(decoding: (try? Data(contentsOf: errorFile)) ?? Data(), as: UTF8.self)
    let bySignal = ended && process.terminationReason == .uncaughtSignal
    let byExit = ended && process.terminationReason == .exit
    return FaultProbeRun(
        terminatingSignal: bySignal ? process.terminationStatus : nil,
        exitCode: byExit ? process.terminationStatus : nil,
        hung: !ended,
        errorOutput: output)
}

private let faultSignalsByName: [String: Int32] = ["SIGILL": SIGILL, "SIGTRAP": SIGTRAP]

/// A crash must stay a crash: subscribing to a synchronous fault signal would make the faulting
/// instruction run again and again instead of ending the process, so the bridge refuses it.
@Suite struct FaultSignalProbeTests {
    @Test
    func theProbeIsBuiltNextToTheTests() {
        #expect(faultProbeURL() != nil)
    }

    @Test(arguments: [["SIGILL"], ["SIGTRAP"], ["SIGUSR1", "SIGILL", "SIGTRAP"]])
    func crashAfterAskingForAFaultSignal_endsTheProcessBySignal(signalNames: [String]) async throws {
        let probe = try #require(faultProbeURL())
        let run = try await runFaultProbe(probe, subscribingTo: signalNames)

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
