import Dispatch
import Foundation

/// Process-wide bookkeeping for the signals that bridges listen to.
///
/// A signal's disposition belongs to the whole process, so one registry decides when to take a
/// signal over and when to give it back: the first listener for a signal (from any bridge)
/// remembers the disposition it found and makes sure dispatch's handler is installed; the last
/// listener to leave writes the remembered disposition back. Signals reach listeners only through
/// a dispatch signal source; no code of this module runs inside a signal handler.
///
/// On Linux, dispatch installs its own small C handler the first time a source for a signal is
/// registered and never installs it again. The registry records that handler when it appears and
/// reinstalls it whenever a signal is taken over again after being given back.
// @unchecked Sendable: `channels` and `nextListenerID` are only touched while holding `lock`, and
// the disposition records only while holding `setupLock`; everything else is immutable.
final class SignalRegistry: @unchecked Sendable {
    /// Called on the registry's delivery queue with the signal number, at least once per burst.
    typealias Listener = @Sendable (Int32) -> Void

    /// Identifies one listener so that it can be removed again.
    struct Token: Hashable, Sendable {
        /// The signal listened to.
        let signal: Int32
        /// Unique within the registry.
        let id: UInt64
    }

    /// The state of one signal while at least one listener wants it.
    private struct Channel {
        /// Identifies this channel, so that late events from an earlier source are dropped.
        let id: UInt64
        /// The dispatch source that receives the signal.
        let source: DispatchSourceSignal
        /// The disposition found before the first listener arrived, restored after the last leaves.
        let previous: SignalDisposition
        /// Everyone who wants to hear about the signal.
        var listeners: [UInt64: Listener]
    }

    /// The registry every bridge uses.
    static let shared = SignalRegistry()

    /// Runs the signal sources' handlers; they only copy the listener list and hand events on, so
    /// the queue never blocks and registration handlers on it always get to run.
    private let deliveryQueue = DispatchQueue(label: "NotificationBridge.SignalRegistry.delivery")

    /// Serialises taking signals over and giving them back (held while waiting for dispatch).
    ///
    /// Lock order: `setupLock`, then `lock`. Neither is held while a listener runs, and no lock of a
    /// bridge or of `PostingCoordinator` is taken while either is held (a cancel releases its
    /// subscription's listeners after letting go of those).
    private let setupLock = NSLock()

    /// Guards the listener lists; only ever held briefly. Lock order: see `setupLock`.
    private let lock = NSLock()

    // guarded by `lock`
    private var channels: [Int32: Channel] = [:]

    // guarded by `lock`
    private var nextListenerID: UInt64 = 0

    // guarded by `setupLock`: the disposition dispatch installed for each signal, seen when it did.
    private var dispatchDispositions: [Int32: SignalDisposition] = [:]

    /// Creates an empty registry; production code uses `shared`.
    init() {}

    /// Starts delivering `signal` to `listener`, taking the signal over if nobody listened yet.
    func addListener(for signal: Int32, _ listener: @escaping Listener) throws -> Token {
        setupLock.lock()
        defer { setupLock.unlock() }

        let id: UInt64 = lock.withLock {
            nextListenerID += 1
            return nextListenerID
        }
        let token = Token(signal: signal, id: id)

        let joinedOpenChannel: Bool = lock.withLock {
            guard channels[signal] != nil else { return false }
            channels[signal]?.listeners[id] = listener
            return true
        }
        if joinedOpenChannel {
            return token
        }

        var channel = try openChannel(for: signal, id: id)
        channel.listeners[id] = listener
        lock.withLock { channels[signal] = channel }
        return token
    }

    /// Stops delivering to the listener behind `token`; the last listener of a signal gives the
    /// signal back by restoring the disposition found before. Removing twice does nothing.
    func removeListener(_ token: Token) {
        setupLock.lock()
        defer { setupLock.unlock() }

        let closedChannel: Channel? = lock.withLock {
            guard var channel = channels[token.signal],
                channel.listeners.removeValue(forKey: token.id) != nil
            else { return nil }
            if channel.listeners.isEmpty {
                channels[token.signal] = nil
                return channel
            }
            channels[token.signal] = channel
            return nil
        }
        guard let closedChannel else { return }
        closedChannel.source.cancel()
        closedChannel.previous.install(for: token.signal)
    }

    /// Whether anyone currently listens to `signal`.
    func isListening(to signal: Int32) -> Bool {
        lock.withLock { channels[signal] != nil }
    }

    /// Takes `signal` over: remembers its disposition, creates a dispatch source for it and makes
    /// sure dispatch's handler is in place. Called with `setupLock` held.
    private func openChannel(for signal: Int32, id: UInt64) throws -> Channel {
        guard let previous = SignalDisposition.current(of: signal) else {
            throw NotificationBridgeError.signalCannotBeCaught(signal)
        }
        // Dispatch installs its handler only for the first source ever made for a signal; after
        // the disposition was given back, put the handler it installed back ourselves.
        let reinstalled = dispatchDispositions[signal]
        if let reinstalled, !reinstalled.install(for: signal) {
            throw NotificationBridgeError.signalCannotBeCaught(signal)
        }

        let source = DispatchSource.makeSignalSource(signal: signal, queue: deliveryQueue)
        let registered = DispatchSemaphore(value: 0)
        source.setRegistrationHandler { registered.signal() }
        source.setEventHandler { [weak self] in
            self?.deliver(signal, channelID: id)
        }
        source.resume()
        // Dispatch registers the source (and, the first time, installs its handler) on its manager
        // thread and then runs the registration handler on `deliveryQueue`, which never blocks.
        registered.wait()

        let installed = SignalDisposition.current(of: signal) ?? previous
        if reinstalled == nil, installed != previous, installed.hasHandlerFunction {
            dispatchDispositions[signal] = installed
        }
        if !installed.hasHandlerFunction {
            // Dispatch saw this signal before the registry did (its handler is installed only
            // once per process) and that handler was reset since: the signal cannot reach us.
            source.cancel()
            previous.install(for: signal)
            throw NotificationBridgeError.signalInterceptionUnavailable(signal)
        }
        return Channel(id: id, source: source, previous: previous, listeners: [:])
    }

    /// Hands one event of `signal` to every listener of the channel that received it.
    private func deliver(_ signal: Int32, channelID: UInt64) {
        let listeners: [Listener] = lock.withLock {
            guard let channel = channels[signal], channel.id == channelID else { return [] }
            return Array(channel.listeners.values)
        }
        for listener in listeners {
            listener(signal)
        }
    }
}
