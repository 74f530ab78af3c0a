import Foundation
import KatanaTestSupport
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `traced-service`, built next to these tests, run as a child process with its OTEL_* variables
/// pointing at the test's collector. What it prints goes to a file the test reads; nothing signals
/// its output, so the wait for it polls.
struct ServiceProcess {
    let process: Process
    let output: URL
    /// The port it listens on, from the line it prints once it accepts requests.
    let port: Int

    /// Starts `traced-service` with `arguments`, exporting to `collectorPort`, and waits until it
    /// listens.
    static func start(_ arguments: [String], collectorPort: Int) async throws -> ServiceProcess {
        let testBinary = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
        let executable = URL(fileURLWithPath: testBinary).deletingLastPathComponent().appendingPathComponent("traced-service")
        try #require(FileManager.default.isExecutableFile(atPath: executable.path), "build traced-service first")
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("traced-service-\(UUID().uuidString)")
        _ = FileManager.default.createFile(atPath: output.path, contents: nil)
        let file = try FileHandle(forWritingTo: output)
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(
            [
                "OTEL_EXPORTER_OTLP_ENDPOINT": "http://127.0.0.1:\(collectorPort)",
                "OTEL_EXPORTER_OTLP_PROTOCOL": "http/json",
                // Export every 100 ms rather than every 5 s, so the test's wait is short.
                "OTEL_BSP_SCHEDULE_DELAY": "100",
            ],
            uniquingKeysWith: { _, given in given }
        )
        process.standardOutput = file
        process.standardError = file
        try process.run()
        let printed = { (try? String(contentsOf: output, encoding: .utf8)) ?? "" }
        // Its own line, not the server's log line that also says "listening on".
        let announced = { printed().split(separator: "\n").first { $0.hasPrefix("listening on ") } }
        do {
            try await poll("traced-service \(arguments.first ?? "") to listen") { announced() != nil || !process.isRunning }
            guard let line = announced(), let port = Int(line.dropFirst("listening on ".count)) else {
                Issue.record("traced-service \(arguments) did not start; it printed: \(printed())")
                throw TimedOut(waitingFor: "traced-service to listen", after: .zero)
            }
            return ServiceProcess(process: process, output: output, port: port)
        } catch {
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
            throw error
        }
    }

    /// Runs `body` with `traced-service` started with `arguments`, and stops it afterwards, whether
    /// `body` returned or threw.
    static func running<T>(
        _ arguments: [String], collectorPort: Int, _ body: (ServiceProcess) async throws -> T
    ) async throws -> T {
        let service = try await start(arguments, collectorPort: collectorPort)
        do {
            let result = try await body(service)
            await service.stop()
            return result
        } catch {
            await service.stop()
            throw error
        }
    }

    /// Asks it to end (SIGTERM), waits for it, and kills it if it has not ended in time.
    func stop() async {
        if process.isRunning { kill(process.processIdentifier, SIGTERM) }
        try? await poll("traced-service to end") { !process.isRunning }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        try? FileManager.default.removeItem(at: output)
    }
}
