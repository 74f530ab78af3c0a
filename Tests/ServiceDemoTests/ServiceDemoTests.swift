import Foundation
import Testing

/// Runs the README's `swift run katana-service-demo` (the built executable) as a child process:
/// the scripted tour, and the command line.
@Suite struct ServiceDemoTests {
    @Test func defaultTour_heartbeatsReloadsOnSIGHUPAndShutsDownCleanly() async throws {
        let (status, log, _) = try await DemoProcess.run([])
        #expect(status == 0, "log:\n\(log)")
        #expect(log.contains("scripted tour"))
        #expect(log.contains("configuration loaded: log level info, heartbeat every 250 ms"))
        #expect(log.contains("tour: sending SIGHUP to myself"))
        #expect(log.contains("configuration reloaded (reload #1)"))
        #expect(log.contains("log level changed: info -> debug"))
        #expect(log.contains("received SIGTERM: shutting down"))
        #expect(log.contains("timers and signal subscriptions cancelled"))
        #expect((log.value(after: "ticks") ?? 0) >= 3)
        #expect(log.value(after: "reloads") == 1)
        // Nothing was left to drain or cancel: the tour stops only once its reload has finished.
        #expect(log.contains(", cancelled 0, still running 0"), "log:\n\(log)")
        // The summary, written once `runUntilShutdown()` has returned in `main`, is the last line.
        #expect(log.nonEmptyLines.last?.contains("summary: ticks=") == true, "log:\n\(log)")
        // Every line is timestamped.
        #expect(log.nonEmptyLines.allSatisfy { $0.first?.isNumber == true }, "log:\n\(log)")
    }

    @Test func defaultTour_latestSearchWins_earlierOnesAreCancelled() async throws {
        let (status, log, _) = try await DemoProcess.run([])
        #expect(status == 0, "log:\n\(log)")
        #expect(log.contains("tour: typing 's', 'si', 'side' into the search box"), "log:\n\(log)")
        #expect(log.contains("search 's' cancelled: a newer search replaced it"), "log:\n\(log)")
        #expect(log.contains("search 'si' cancelled: a newer search replaced it"), "log:\n\(log)")
        #expect(log.contains("search 'side' found 3: AsyncSideEffect, SideEffect, SideEffectID"), "log:\n\(log)")
        // Only the last search's result landed, in the log and in the state.
        #expect(log.occurrences(of: "found") == 1, "log:\n\(log)")
        #expect(log.contains("search='side'"), "log:\n\(log)")
    }

    @Test func defaultTour_logLevelIsApplied_debugLinesOnlyAfterTheReloadToDebug() async throws {
        let (status, log, _) = try await DemoProcess.run([])
        #expect(status == 0, "log:\n\(log)")
        // The built-in configuration starts at "info": the dispatch lines (debug) of the heartbeats,
        // the search and the reload itself are not written. The reload switches it to "debug": the
        // dispatch lines that follow are.
        let lines = log.nonEmptyLines
        let hup = try #require(log.firstLine(containing: "tour: sending SIGHUP"), "log:\n\(log)")
        let debugLines = lines.indices.filter { lines[$0].contains("[Katana] dispatched") }
        #expect(!debugLines.isEmpty, "log:\n\(log)")
        #expect(debugLines.allSatisfy { $0 > hup }, "log:\n\(log)")
        #expect(!log.contains("dispatched katana_service_demo.LoadConfiguration"), "log:\n\(log)")
        #expect(log.contains("dispatched katana_service_demo.RequestShutdown"), "log:\n\(log)")
    }

    @Test func help_printsUsageOnStandardOutput_andExitsWithZero() async throws {
        for flag in ["--help", "-h"] {
            let (status, log, printed) = try await DemoProcess.run([flag])
            #expect(status == 0)
            #expect(printed.hasPrefix("usage: katana-service-demo [--config PATH] [--serve] [--record PATH] [--inspect [--inspect-port N]] [--help]\n"), "printed:\n\(printed)")
            #expect(printed.contains("--serve"))
            #expect(printed.contains("heartbeatMilliseconds: 10 (10 ms) to 3600000 (1 hour)"))
            #expect(printed.contains("logLevel: debug, info, warning or error"))
            // Nothing starts: no log.
            #expect(log.isEmpty, "log:\n\(log)")
        }
    }

    @Test func inspect_inThisBuild_saysWhichBuildServesTheInspector() async throws {
        let (status, log, _) = try await DemoProcess.run(["--inspect"])
        #expect(status == 2)
        #expect(log.contains("swift run --package-path Tools katana-inspected-demo --inspect"), "log:\n\(log)")
        let (badPort, portLog, _) = try await DemoProcess.run(["--inspect", "--inspect-port", "http"])
        #expect(badPort == 2)
        #expect(portLog.contains("--inspect-port needs a port number from 0 to 65535"), "log:\n\(portLog)")
    }

    @Test func unknownFlag_exitsWithTwoAndNamesIt() async throws {
        let (status, log, _) = try await DemoProcess.run(["--frobnicate"])
        #expect(status == 2)
        #expect(log == "katana-service-demo: error: unknown option '--frobnicate' (usage: katana-service-demo [--config PATH] [--serve] [--record PATH] [--inspect [--inspect-port N]] [--help])\n")
    }
}

/// Bad configurations: each ends the demo before it starts, with one line naming the file, what is
/// wrong and what is expected, and exit code 2.
@Suite struct ServiceDemoConfigurationTests {
    /// Runs the demo with a configuration file holding `json`; returns its exit status, its log and the file's path.
    private func run(withConfiguration json: String) async throws -> (status: Int32, log: String, path: String) {
        let file = try DemoProcess.temporaryConfiguration(json)
        defer { try? FileManager.default.removeItem(at: file) }
        let (status, log, _) = try await DemoProcess.run(["--config", file.path])
        return (status, log, file.path)
    }

    @Test(arguments: [
        ("9223372036854775807", "9223372036854775807"),  // Int64.max: the demo used to accept it and never tick
        ("9", "9"),
        ("0", "0"),
        ("-250", "-250"),
        ("3600001", "3600001"),
        ("1e30", "1e+30"),
        ("2.5", "2.5"),
    ])
    func heartbeatOutOfRange_exitsWithTwoAndStatesTheRange(written: String, shown: String) async throws {
        let (status, log, path) = try await run(withConfiguration: #"{ "name": "x", "logLevel": "info", "heartbeatMilliseconds": \#(written) }"#)
        #expect(status == 2)
        #expect(
            log == "katana-service-demo: error: configuration file '\(path)': heartbeatMilliseconds must be a whole number "
                + "from 10 (10 ms) to 3600000 (1 hour), got \(shown)\n"
        )
    }

    @Test func heartbeatAtTheEdgesOfTheRange_isAccepted() async throws {
        for heartbeat in [10, 3_600_000] {
            let file = try DemoProcess.temporaryConfiguration(#"{ "name": "x", "logLevel": "info", "heartbeatMilliseconds": \#(heartbeat) }"#)
            defer { try? FileManager.default.removeItem(at: file) }
            let demo = try DemoProcess(["--serve", "--config", file.path])
            #expect(await demo.waitForLog("configuration loaded: log level info, heartbeat every \(heartbeat) ms"), "log:\n\(demo.output)")
            kill(demo.pid, SIGTERM)
            let status = try await demo.waitForExit()
            #expect(status == 0, "log:\n\(demo.output)")
        }
    }

    @Test func unknownLogLevel_exitsWithTwoAndListsTheLevels() async throws {
        let (status, log, path) = try await run(withConfiguration: #"{ "name": "x", "logLevel": "verbose", "heartbeatMilliseconds": 250 }"#)
        #expect(status == 2)
        #expect(log == "katana-service-demo: error: configuration file '\(path)': logLevel must be debug, info, warning or error, got 'verbose'\n")
    }

    @Test func directoryAsConfig_exitsWithTwoAndSaysItIsADirectory() async throws {
        let directory = FileManager.default.temporaryDirectory.path
        let (status, log, _) = try await DemoProcess.run(["--config", directory])
        #expect(status == 2)
        #expect(
            log == "katana-service-demo: error: configuration file '\(directory)' is a directory; pass the path of a JSON file such as "
                + #"{ "name": "demo", "logLevel": "info", "heartbeatMilliseconds": 250 }"# + "\n"
        )
    }

    @Test func jsonArray_exitsWithTwoAndSaysAnObjectWasExpected() async throws {
        let (status, log, path) = try await run(withConfiguration: #"[{ "name": "x", "logLevel": "info", "heartbeatMilliseconds": 250 }]"#)
        #expect(status == 2)
        #expect(
            log == "katana-service-demo: error: configuration file '\(path)' is not a valid configuration: expected a JSON object such as "
                + #"{ "name": "demo", "logLevel": "info", "heartbeatMilliseconds": 250 }, got an array"# + "\n"
        )
    }

    @Test func malformedConfig_exitsWithTwoAndOneLineError() async throws {
        let (status, log, path) = try await run(withConfiguration: #"{ "name": "broken", "logLevel": "#)
        #expect(status == 2)
        #expect(log.nonEmptyLines.count == 1, "log:\n\(log)")
        #expect(log.hasPrefix("katana-service-demo: error: configuration file '\(path)' is not a valid configuration"))
    }

    @Test func wrongType_exitsWithTwoAndNamesTheKey() async throws {
        let (status, log, path) = try await run(withConfiguration: #"{ "name": "x", "logLevel": "info", "heartbeatMilliseconds": "fast" }"#)
        #expect(status == 2)
        #expect(log == "katana-service-demo: error: configuration file '\(path)' is not a valid configuration: 'heartbeatMilliseconds' should be a number\n")
    }

    @Test func unreadableConfig_exitsWithTwoAndOneLineError() async throws {
        let (status, log, _) = try await DemoProcess.run(["--config", "/nonexistent/katana-demo.json"])
        #expect(status == 2)
        #expect(log.nonEmptyLines.count == 1, "log:\n\(log)")
        #expect(log.hasPrefix("katana-service-demo: error: cannot read configuration file '/nonexistent/katana-demo.json'"))
    }
}
