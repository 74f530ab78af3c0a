import Dispatch
import Foundation
import Katana
import NotificationBridge

/// What the demo's side effects need: the command line, the bridge to the operating system, and a
/// way to tell the main thread the service has shut down.
final class DemoDependencies: SideEffectDependencyContainer {
    let options: CommandLineOptions
    let bridge = NotificationBridge(center: .default)
    let startedAt = ContinuousClock.now
    /// Signalled once the graceful shutdown has finished.
    let finished = DispatchSemaphore(value: 0)
    /// Which built-in configuration revision the next load reads.
    private let revisions = RevisionCounter()

    init(options: CommandLineOptions) {
        self.options = options
    }

    required convenience init(dispatch: @escaping AnyDispatch, getState: @escaping GetState) {
        self.init(options: CommandLineOptions())
    }

    /// Reads the configuration: the `--config` file, or the next built-in revision.
    func readConfiguration() throws -> ServiceConfiguration {
        if let path = options.configPath {
            return try ServiceConfiguration.load(path: path)
        }
        let revision = ServiceConfiguration.builtInRevisions[revisions.next(limit: ServiceConfiguration.builtInRevisions.count)]
        return try ServiceConfiguration.decode(Data(revision.utf8), source: "the built-in configuration")
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
    // @unchecked: `next` is only touched while holding `lock`.
    private let lock = NSLock()
    private var nextValue = 0

    func next(limit: Int) -> Int {
        lock.withLock {
            defer { nextValue = min(nextValue + 1, limit - 1) }
            return nextValue
        }
    }
}
