import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Runs the README's `swift run katana-service-demo` (the built executable) as a child process.
@Suite struct ServiceDemoTests {
    @Test func defaultTour_heartbeatsReloadsOnSIGHUPAndShutsDownCleanly() throws {
        let (status, log) = try DemoProcess.run([])
        #expect(status == 0, "log:\n\(log)")
        #expect(log.contains("scripted tour"))
        #expect(log.contains("configuration loaded: log level info"))
        #expect(log.components(separatedBy: "dispatched katana_service_demo.Tick").count - 1 >= 3)
        #expect(log.contains("tour: sending SIGHUP to myself"))
        #expect(log.contains("configuration reloaded (reload #1)"))
        #expect(log.contains("log level changed: info -> debug"))
        #expect(log.contains("received SIGTERM: shutting down"))
        #expect(log.contains("timers and signal subscriptions cancelled"))
        #expect(log.contains("status=stopped"))
        #expect((log.value(after: "ticks") ?? 0) >= 3)
        #expect(log.value(after: "reloads") == 1)
        // Every line is timestamped.
        #expect(log.nonEmptyLines.allSatisfy { $0.first?.isNumber == true }, "log:\n\(log)")
    }

    @Test func malformedConfig_exitsWithTwoAndOneLineError() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("katana-demo-\(UUID().uuidString).json")
        try Data(#"{ "name": "broken", "logLevel": "#.utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let (status, log) = try DemoProcess.run(["--config", file.path])
        #expect(status == 2)
        #expect(log.nonEmptyLines.count == 1, "log:\n\(log)")
        #expect(log.hasPrefix("katana-service-demo: error: configuration file '\(file.path)' is not a valid configuration"))
    }

    @Test func unreadableConfig_exitsWithTwoAndOneLineError() throws {
        let (status, log) = try DemoProcess.run(["--config", "/nonexistent/katana-demo.json"])
        #expect(status == 2)
        #expect(log.nonEmptyLines.count == 1, "log:\n\(log)")
        #expect(log.contains("cannot read configuration file '/nonexistent/katana-demo.json'"))
    }

    @Test func unknownFlag_exitsWithTwoAndNamesIt() throws {
        let (status, log) = try DemoProcess.run(["--frobnicate"])
        #expect(status == 2)
        #expect(log.nonEmptyLines.count == 1, "log:\n\(log)")
        #expect(log.contains("unknown option '--frobnicate'"))
    }

    @Test func serve_reloadsOnRealSIGHUP_andExitsCleanlyOnSIGTERM() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("katana-demo-\(UUID().uuidString).json")
        try Data(#"{ "name": "served", "logLevel": "warning", "heartbeatMilliseconds": 1000 }"#.utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }

        let demo = try DemoProcess(["--serve", "--config", file.path])
        #expect(demo.waitForLog("pid \(demo.pid): serving until SIGTERM or SIGINT"), "log:\n\(demo.output)")
        #expect(demo.waitForLog("configuration loaded: log level warning"), "log:\n\(demo.output)")

        // An operator edits the file and sends SIGHUP.
        try Data(#"{ "name": "served", "logLevel": "error", "heartbeatMilliseconds": 1000 }"#.utf8).write(to: file)
        kill(demo.pid, SIGHUP)
        #expect(demo.waitForLog("log level changed: warning -> error"), "log:\n\(demo.output)")

        kill(demo.pid, SIGTERM)
        let status = try demo.waitForExit()
        #expect(status == 0, "log:\n\(demo.output)")
        #expect(demo.output.contains("received SIGTERM: shutting down"))
        #expect(demo.output.value(after: "reloads") == 1)
        #expect(demo.output.contains("status=stopped"))
    }
}
