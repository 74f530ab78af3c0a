import Foundation
import Katana
import NotificationBridge

/// What the demo's side effects need: the command line, the bridge to the operating system, the
/// heartbeat timer, and a way to ask `main` for the shutdown.
final class DemoDependencies: SideEffectDependencyContainer {
    let options: CommandLineOptions
    let bridge = NotificationBridge(center: .default)
    let heartbeat: Heartbeat
    let startedAt = ContinuousClock.now
    /// The signals that asked for a shutdown, by name, in order: `main` awaits the first.
    let shutdownRequests: AsyncStream<String>
    private let shutdownRequestsContinuation: AsyncStream<String>.Continuation
    /// Which built-in configuration revision the next load reads.
    private let revisions = RevisionCounter()
    /// Where configurations come from, when a test says (see ``useConfigurations(_:)``).
    private let configurationOverride = ConfigurationOverride()

    init(options: CommandLineOptions) {
        self.options = options
        heartbeat = Heartbeat(bridge: bridge)
        (shutdownRequests, shutdownRequestsContinuation) = AsyncStream.makeStream(of: String.self)
    }

    required convenience init(dispatch: @escaping AnyDispatch, getState: @escaping GetState) {
        self.init(options: CommandLineOptions())
    }

    /// Reads the configuration: the `--config` file, or the next built-in revision.
    func readConfiguration() throws -> ServiceConfiguration {
        if let read = configurationOverride.reader {
            return try read()
        }
        if let path = options.configPath {
            return try ServiceConfiguration.load(path: path)
        }
        let revision = ServiceConfiguration.builtInRevisions[revisions.next(limit: ServiceConfiguration.builtInRevisions.count)]
        return try ServiceConfiguration.decode(Data(revision.utf8), source: "the built-in configuration")
    }

    /// Reads configurations with `read` from now on (a test's configurations).
    func useConfigurations(_ read: @escaping @Sendable () throws -> ServiceConfiguration) {
        configurationOverride.reader = read
    }

    /// Asks `main` to shut the service down (see `Shutdown`).
    func requestShutdown(signalName: String) {
        shutdownRequestsContinuation.yield(signalName)
    }
}

extension Notification.Name {
    /// Posted by the bridge on SIGHUP.
    static let reloadConfiguration = Notification.Name("KatanaServiceDemo.reloadConfiguration")
    /// Posted by the bridge's heartbeat timer.
    static let heartbeat = Notification.Name("KatanaServiceDemo.heartbeat")
    /// Posted by the bridge on SIGTERM or SIGINT.
    static let terminate = Notification.Name("KatanaServiceDemo.terminate")
}

/// Hands out 0, 1, 2, … up to `limit - 1`, then keeps returning the last one.
final class RevisionCounter: @unchecked Sendable {
    // @unchecked: `nextValue` is only touched while holding `lock`.
    private let lock = NSLock()
    private var nextValue = 0

    func next(limit: Int) -> Int {
        lock.withLock {
            defer { nextValue = min(nextValue + 1, limit - 1) }
            return nextValue
        }
    }
}

/// A configuration reader a test put in place of the file or the built-in revisions.
final class ConfigurationOverride: @unchecked Sendable {
    // @unchecked: `storedReader` is only touched while holding `lock`.
    private let lock = NSLock()
    private var storedReader: (@Sendable () throws -> ServiceConfiguration)?

    var reader: (@Sendable () throws -> ServiceConfiguration)? {
        get { lock.withLock { storedReader } }
        set { lock.withLock { storedReader = newValue } }
    }
}
