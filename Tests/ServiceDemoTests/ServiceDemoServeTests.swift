import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `katana-service-demo --serve`, driven with real signals as an operator would.
@Suite struct ServiceDemoServeTests {
    /// A configuration with an hour-long heartbeat (nothing ticks during a test) at `level`.
    private static func configuration(logLevel level: String, heartbeatMilliseconds: Int = 3_600_000) -> String {
        #"{ "name": "x", "logLevel": "\#(level)", "heartbeatMilliseconds": \#(heartbeatMilliseconds) }"#
    }

    /// Serves with a configuration file holding `json`, waits until the log shows `loaded`, runs
    /// `operate` (an operator's actions: signals, edits to the file), then sends SIGTERM and waits
    /// for the exit. Returns the exit status and the demo.
    private func serve(
        configuration json: String,
        loaded: String = "configuration loaded",
        operate: (DemoProcess, URL) async throws -> Void
    ) async throws -> (status: Int32, demo: DemoProcess) {
        let file = try DemoProcess.temporaryConfiguration(json)
        defer { try? FileManager.default.removeItem(at: file) }
        let demo = try DemoProcess(["--serve", "--config", file.path])
        #expect(await demo.waitForLog(loaded), "log:\n\(demo.output)")
        try await operate(demo, file)
        kill(demo.pid, SIGTERM)
        return (try await demo.waitForExit(), demo)
    }

    @Test func sigterm_cancelsTheWarmUpStillRunningAtTheDeadline_andMainReturnsWithZero() async throws {
        let demo = try DemoProcess(["--serve"])
        #expect(await demo.waitForLog("pid \(demo.pid): serving until SIGTERM or SIGINT"), "log:\n\(demo.output)")
        #expect(await demo.waitForLog("warm-up: filling the cache in the background"), "log:\n\(demo.output)")
        #expect(await demo.waitForLog("configuration loaded"), "log:\n\(demo.output)")

        kill(demo.pid, SIGTERM)
        let status = try await demo.waitForExit()
        let log = demo.output
        #expect(status == 0 && !demo.endedBySignal, "log:\n\(log)")
        #expect(log.contains("received SIGTERM: shutting down"), "log:\n\(log)")
        // The hour-long warm-up was still running at the deadline: the shutdown cancelled it, and it
        // saw its cancellation before the summary.
        let cancelled = try #require(log.firstLine(containing: "warm-up cancelled"), "log:\n\(log)")
        let summary = try #require(log.firstLine(containing: "summary: "), "log:\n\(log)")
        #expect(cancelled < summary)
        #expect(log.contains(", cancelled 1, still running 0"), "log:\n\(log)")
        #expect(!log.contains("warm-up finished"))
        // `main` writes the summary after `runUntilShutdown()` returned, then returns: it is the
        // last line.
        #expect(summary == log.nonEmptyLines.count - 1, "log:\n\(log)")
    }

    @Test func sigint_shutsDownLikeSigterm() async throws {
        let demo = try DemoProcess(["--serve"])
        #expect(await demo.waitForLog("configuration loaded"), "log:\n\(demo.output)")
        kill(demo.pid, SIGINT)
        let status = try await demo.waitForExit()
        #expect(status == 0, "log:\n\(demo.output)")
        #expect(demo.output.contains("received SIGINT: shutting down"), "log:\n\(demo.output)")
        #expect(demo.output.contains("cancelled 1"), "log:\n\(demo.output)")
    }

    @Test func logLevel_debugLinesAreWrittenAtDebug_andNotAtInfo() async throws {
        // A SIGHUP makes the rule dispatch `LoadConfiguration`, which the logging interceptor reports
        // at debug level: written only when the configured level is debug.
        for level in ["info", "debug"] {
            let (status, demo) = try await serve(configuration: Self.configuration(logLevel: level), loaded: "configuration loaded: log level \(level)") { demo, _ in
                kill(demo.pid, SIGHUP)
                #expect(await demo.waitForLog("configuration reloaded (reload #1)"), "log:\n\(demo.output)")
            }
            let log = demo.output
            #expect(status == 0, "log:\n\(log)")
            #expect(log.contains("[Katana] dispatched katana_service_demo.LoadConfiguration") == (level == "debug"), "log:\n\(log)")
            #expect(log.contains("[Katana] dispatched katana_service_demo.RequestShutdown") == (level == "debug"), "log:\n\(log)")
        }
    }

    @Test func logLevel_warningHidesInfoLines_butNotTheLevelChangeOrTheSummary() async throws {
        let (status, demo) = try await serve(configuration: Self.configuration(logLevel: "info"), loaded: "configuration loaded: log level info") { demo, file in
            // An operator edits the file and sends SIGHUP.
            try Data(Self.configuration(logLevel: "warning").utf8).write(to: file)
            kill(demo.pid, SIGHUP)
            #expect(await demo.waitForLog("log level changed: info -> warning"), "log:\n\(demo.output)")
        }
        let log = demo.output
        #expect(status == 0, "log:\n\(log)")
        // The level is applied before anything after the update is logged: the reload's own info
        // line is not written, nor are the shutdown's.
        #expect(!log.contains("configuration reloaded"), "log:\n\(log)")
        #expect(!log.contains("received SIGTERM"), "log:\n\(log)")
        #expect(!log.contains("warm-up cancelled"), "log:\n\(log)")
        #expect(log.value(after: "reloads") == 1, "log:\n\(log)")
        #expect(log.contains("log level=warning"), "log:\n\(log)")
        #expect(log.nonEmptyLines.last?.contains("summary: ") == true, "log:\n\(log)")
    }

    // A reload that changes the heartbeat is tested in process, on a test clock, by
    // `DemoRulesTests.aReloadThatChangesTheHeartbeat_ticksAtTheNewInterval` (it waited for real
    // 20 ms ticks here).

    @Test func reloadThatKeepsTheHeartbeat_keepsTheTimer() async throws {
        let (status, demo) = try await serve(configuration: Self.configuration(logLevel: "info")) { demo, file in
            try Data(Self.configuration(logLevel: "debug").utf8).write(to: file)
            kill(demo.pid, SIGHUP)
            #expect(await demo.waitForLog("log level changed: info -> debug"), "log:\n\(demo.output)")
        }
        #expect(status == 0, "log:\n\(demo.output)")
        #expect(!demo.output.contains("heartbeat changed"), "log:\n\(demo.output)")
    }

    @Test func reloadOfABadFile_keepsTheCurrentConfiguration() async throws {
        let (status, demo) = try await serve(configuration: Self.configuration(logLevel: "info")) { demo, file in
            try Data(Self.configuration(logLevel: "info", heartbeatMilliseconds: 5).utf8).write(to: file)
            kill(demo.pid, SIGHUP)
            #expect(
                await demo.waitForLog(
                    "configuration reload failed, keeping the current one: configuration file '\(file.path)': "
                        + "heartbeatMilliseconds must be a whole number from 10 (10 ms) to 3600000 (1 hour), got 5"
                ),
                "log:\n\(demo.output)"
            )
        }
        #expect(status == 0, "log:\n\(demo.output)")
        #expect(demo.output.value(after: "reloads") == 0, "log:\n\(demo.output)")
    }

    /// SIGHUP then SIGTERM back to back: the shutdown drains the reload before it reads the state
    /// for the summary, so the summary agrees with the log, whichever finishes first. Fifty runs,
    /// five at a time, since the two orders are a matter of timing.
    @Test func sighupThenSigterm_fiftyRuns_summaryAgreesWithTheLog_andNothingFollowsIt() async throws {
        let runs = 50
        let lanes = 5
        let failures = try await withThrowingTaskGroup(of: [String].self) { group in
            for lane in 0..<lanes {
                group.addTask {
                    var problems: [String] = []
                    for run in stride(from: lane, to: runs, by: lanes) {
                        problems += try await Self.sighupThenSigterm(run: run)
                    }
                    return problems
                }
            }
            return try await group.reduce(into: []) { $0 += $1 }
        }
        #expect(failures.isEmpty, "\(failures.count) problems:\n\(failures.joined(separator: "\n\n"))")
    }

    /// One run: SIGHUP and SIGTERM back to back, once the service listens; returns what is wrong.
    private static func sighupThenSigterm(run: Int) async throws -> [String] {
        let demo = try DemoProcess(["--serve"])
        guard await demo.waitForLog("configuration loaded") else {
            kill(demo.pid, SIGKILL)
            return ["run \(run): never loaded its configuration; log:\n\(demo.output)"]
        }
        kill(demo.pid, SIGHUP)
        kill(demo.pid, SIGTERM)
        let status = try await demo.waitForExit(timeout: .seconds(30))
        let log = demo.output
        var problems: [String] = []
        if status != 0 || demo.endedBySignal {
            problems.append("exit status \(status)\(demo.endedBySignal ? " (signal)" : "")")
        }
        let reloadLines = log.nonEmptyLines.filter { $0.contains("configuration reloaded (reload #") }
        let loggedReloads = reloadLines.last.flatMap { String($0).number(after: "reload #") } ?? 0
        if reloadLines.count > 1 {
            problems.append("\(reloadLines.count) reload lines for one SIGHUP")
        }
        if log.value(after: "reloads") != loggedReloads {
            problems.append("the log says \(loggedReloads) reloads, the summary says reloads=\(log.value(after: "reloads").map(String.init) ?? "nothing")")
        }
        if log.nonEmptyLines.last?.contains("summary: ") != true {
            problems.append("the summary is not the last line")
        }
        if !log.contains("cancelled 1, still running 0") {
            problems.append("the warm-up was not the one item cancelled")
        }
        return problems.isEmpty ? [] : ["run \(run): " + problems.joined(separator: "; ") + "; log:\n\(log)"]
    }
}
