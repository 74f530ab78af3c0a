import Dispatch
import Foundation
import Katana
import KatanaObservers
import NotificationBridge

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reports a mistake in the command line or the configuration as one line, and exits with 2.
func exitWithUsageError(_ error: any Error) -> Never {
    FileHandle.standardError.write(Data("katana-service-demo: error: \(error)\n".utf8))
    exit(2)
}

let options: CommandLineOptions
do {
    options = try CommandLineOptions.parse(Array(CommandLine.arguments.dropFirst()))
    if let path = options.configPath {
        _ = try ServiceConfiguration.load(path: path)  // fail fast, before anything starts
    }
} catch {
    exitWithUsageError(error)
}

DemoLog.write(
    "katana-service-demo starting, pid \(getpid()): "
        + (options.serve ? "serving until SIGTERM or SIGINT (try: kill -HUP \(getpid()))" : "scripted tour")
)

func makeStore(options: CommandLineOptions) -> Store<DemoState, DemoDependencies> {
    let rules = ObserverInterceptor.observe {
        DemoRules.service
        if !options.serve {
            DemoRules.tour
        }
    }
    return Store<DemoState, DemoDependencies>(
        interceptors: [DispatchableLogger.interceptor(sink: DemoLog.write), rules],
        stateInitializer: { DemoState() },
        dependenciesInitializer: { _, _ in DemoDependencies(options: options) }
    )
}

/// Runs the service until its graceful shutdown has finished; returns the exit code.
func runService(options: CommandLineOptions) -> Int32 {
    let store = makeStore(options: options)
    let dependencies = store.dependencies
    do {
        try dependencies.bridge.post(.reloadConfiguration, onSignal: SIGHUP)
        try dependencies.bridge.post(.terminate, onSignals: [SIGTERM, SIGINT])
    } catch {
        DemoLog.write("cannot subscribe to signals: \(error)")
        return 1
    }
    if options.serve {
        dependencies.finished.wait()
    } else if dependencies.finished.wait(timeout: .now() + .seconds(30)) == .timedOut {
        DemoLog.write("the tour did not finish within 30 seconds")
        return 1
    }
    return 0
}

exit(runService(options: options))
