import Foundation
import Katana
import KatanaObservers
import KatanaRecording
import NotificationBridge

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `katana-service-demo`: a small service whose life is its store's. `main` starts the store,
/// subscribes to the signals, and awaits `store.runUntilShutdown()`; the process ends when `main`
/// returns, after the shutdown (`Shutdown`) has drained the store and the summary is written.
@main
enum ServiceDemo {
    typealias DemoStore = Store<DemoState, DemoDependencies>

    static func main() async {
        let options: CommandLineOptions
        let recording: RecordingFile<DemoState>?
        let inspection: (any LiveDemoInspection)?
        do {
            options = try CommandLineOptions.parse(Array(CommandLine.arguments.dropFirst()))
            if options.showsHelp {
                print(CommandLineOptions.help)
                return
            }
            if let path = options.configPath {
                _ = try ServiceConfiguration.load(path: path)  // fail fast, before anything starts
            }
            recording = try options.recordPath.map { try RecordingFile<DemoState>(writingTo: URL(fileURLWithPath: $0)) }
            inspection = options.inspect ? try DemoInspection.start(port: options.inspectPort) : nil
        } catch {
            exitWithUsageError(error)
        }

        DemoLog.always(
            "katana-service-demo starting, pid \(getpid()): "
                + (options.serve ? "serving until SIGTERM or SIGINT (try: kill -HUP \(getpid()))" : "scripted tour")
        )
        let store = makeStore(options: options, recordingTo: [recording, inspection?.sink].compactMap { $0 })
        applyLogLevel(of: store)
        if let inspection {
            do {
                DemoLog.always("inspector: open \(try await inspection.address()) to watch the store, live")
            } catch {
                DemoLog.error("the inspector cannot serve (the store runs without it): \(error)")
            }
        }
        let dependencies = store.dependencies
        do {
            try dependencies.bridge.post(.reloadConfiguration, onSignal: SIGHUP)
            try dependencies.bridge.post(.terminate, onSignals: [SIGTERM, SIGINT])
        } catch {
            DemoLog.error("cannot subscribe to signals: \(error)")
            await store.shutdown(.cancelWork, deadline: .zero)
            exit(1)
        }
        // Started once the signals are heard: from "configuration loaded" on, a SIGHUP reloads
        // and a SIGTERM shuts down (before, they would take their default action).
        store.dispatch(LoadConfiguration(reason: .start))
        if options.serve {
            store.dispatch(WarmUpCache())
        }

        let shutdown = Task {
            for await signalName in dependencies.shutdownRequests {  // the first SIGTERM or SIGINT
                await Shutdown.run(store, signalName: signalName)     // timers off, then store.shutdown(...)
                return
            }
        }
        let report = await store.runUntilShutdown()  // returns once the shutdown has left the store idle
        await shutdown.value
        DemoLog.always(summary(of: store.state, since: dependencies.startedAt, shutdown: report))
        if let recording {
            recording.close()  // everything recorded is on disk
            DemoLog.always("recorded the session to \(recording.url.path)" + (recording.writeFailure.map { " (\($0))" } ?? ""))
        }
        if let inspection, !options.serve, let address = try? await inspection.address() {
            // The tour is over, its history stays on the page until the user is done with it.
            DemoLog.always("the tour is over; the inspector still serves \(address) until Ctrl-C")
            signal(SIGINT, SIG_DFL)
            await withUnsafeContinuation { (_: UnsafeContinuation<Void, Never>) in }
        }
        // main returns: the process ends
    }

    /// The last line: what the service did, and what its shutdown drained ("handled") and cancelled.
    static func summary(of state: DemoState, since start: ContinuousClock.Instant, shutdown report: ShutdownReport) -> String {
        let uptime = ContinuousClock.now - start
        return "summary: ticks=\(state.ticks) reloads=\(state.reloads) search=\(state.search.map { "'\($0.query)'" } ?? "none") "
            + "log level=\(state.configuration?.logLevel.rawValue ?? "none") "
            + "uptime=\(uptime.formatted(.units(allowed: [.seconds], fractionalPart: .show(length: 2)))); "
            + "shutdown: \(report)"
    }

    static func makeStore(options: CommandLineOptions, recordingTo sinks: [any RecordingSink<DemoState>] = []) -> DemoStore {
        let rules = ObserverInterceptor.observe {
            DemoRules.service
            if !options.serve {
                DemoRules.tour
            }
        }
        return DemoStore(
            interceptors: Interceptors {
                if !sinks.isEmpty {
                    StoreRecorder(to: sinks)  // first: it sees every item
                }
                DispatchableLogger.interceptor(sink: DemoLog.debug)
                rules
            },
            stateInitializer: { DemoState() },
            dependenciesInitializer: { _, _ in DemoDependencies(options: options) }
        )
    }

    /// Applies the configured log level to the demo's log as soon as a configuration is stored:
    /// the listener runs before the updater's promise settles, so a line logged after the update
    /// already obeys the new level.
    static func applyLogLevel(of store: DemoStore) {
        store.addListener(of: \DemoState.configuration?.logLevel) { _, level in
            DemoLog.apply(level ?? LogLevel.beforeConfiguration)
        }
    }

    /// Reports a mistake in the command line or the configuration as one line, and exits with 2.
    static func exitWithUsageError(_ error: any Error) -> Never {
        FileHandle.standardError.write(Data("katana-service-demo: error: \(error)\n".utf8))
        exit(2)
    }
}
