import Dispatch
import Foundation

/// One live link from an event source (signals or a timer) to a notification.
///
/// The bridge keeps the subscription alive, so dropping this handle does not stop it; call
/// `cancel()`, the bridge's `cancelAll()`, or release the bridge. Once `cancel()` returns, the
/// subscription never posts again.
// @unchecked Sendable: every mutable property is only touched while holding `gate`; the rest is
// immutable or Sendable.
public final class NotificationBridgeSubscription: @unchecked Sendable {
    /// What starts the posts.
    enum Trigger: Sendable {
        /// Posts whenever one of the signals arrives.
        case signals([Int32])
        /// Posts after `delay` and then every `interval`, or only once when `interval` is `nil`.
        case timer(delay: Duration, interval: Duration?, leeway: Duration)
    }

    /// The name of the notifications this subscription posts.
    public let name: Notification.Name

    /// What starts the posts.
    let trigger: Trigger

    /// Where notifications go.
    private let center: NotificationCenter

    /// The queue notifications are posted from.
    private let queue: DispatchQueue

    /// Where signal listeners are registered.
    private let registry: SignalRegistry

    /// The bridge that owns this subscription and is the posted notifications' `object`.
    private weak let bridge: NotificationBridge?

    /// Serialises posting with cancelling, so that cancel() waits for a post in progress. It is
    /// recursive so that an observer may cancel from inside the post it is handling.
    private let gate = NSRecursiveLock()

    // guarded by `gate`
    private var cancelled = false

    // guarded by `gate`: how many times the timer has posted.
    private var fireCount = 0

    // guarded by `gate`
    private var timerSource: DispatchSourceTimer?

    // guarded by `gate`
    private var signalTokens: [SignalRegistry.Token] = []

    /// Creates an inactive subscription; `start()` begins listening.
    init(
        name: Notification.Name,
        trigger: Trigger,
        bridge: NotificationBridge,
        registry: SignalRegistry
    ) {
        self.name = name
        self.trigger = trigger
        self.center = bridge.center
        self.queue = bridge.queue
        self.registry = registry
        self.bridge = bridge
    }

    /// Whether the subscription can still post: false once it was cancelled (directly, by
    /// `cancelAll()`, or by the bridge going away) or, for a one-shot timer, once it has fired.
    public var isActive: Bool {
        gate.withLock { !cancelled }
    }

    /// Stops the posts. When this returns no further notification is posted for this
    /// subscription, and the signal's previous disposition is restored if this was its last
    /// subscription. Calling it again does nothing.
    public func cancel() {
        gate.lock()
        if cancelled {
            gate.unlock()
            return
        }
        cancelled = true
        let timerSource = self.timerSource
        self.timerSource = nil
        let signalTokens = self.signalTokens
        self.signalTokens = []
        gate.unlock()

        timerSource?.cancel()
        for token in signalTokens {
            registry.removeListener(token)
        }
        bridge?.forget(self)
    }

    /// Begins listening; throws (after undoing any partial work) when a signal cannot be taken.
    func start() throws {
        switch trigger {
        case .signals(let signals):
            try startListening(to: signals)
        case .timer(let delay, let interval, let leeway):
            startTimer(delay: delay, interval: interval, leeway: leeway)
        }
    }

    private func startListening(to signals: [Int32]) throws {
        var tokens: [SignalRegistry.Token] = []
        do {
            for signal in signals {
                let token = try registry.addListener(for: signal) { [weak self] signal in
                    self?.signalArrived(signal)
                }
                tokens.append(token)
            }
        } catch {
            for token in tokens {
                registry.removeListener(token)
            }
            throw error
        }

        gate.lock()
        let cancelledMeanwhile = cancelled
        if !cancelledMeanwhile {
            signalTokens = tokens
        }
        gate.unlock()
        if cancelledMeanwhile {
            for token in tokens {
                registry.removeListener(token)
            }
        }
    }

    private func startTimer(delay: Duration, interval: Duration?, leeway: Duration) {
        let source = DispatchSource.makeTimerSource(queue: queue)
        source.schedule(
            deadline: .now() + delay.dispatchInterval,
            repeating: interval?.dispatchInterval ?? .never,
            leeway: leeway.dispatchInterval)
        source.setEventHandler { [weak self] in
            self?.timerFired()
        }

        gate.lock()
        let cancelledMeanwhile = cancelled
        if !cancelledMeanwhile {
            timerSource = source
            source.resume()
        }
        gate.unlock()
    }

    /// Called on the registry's queue; hops to the bridge's queue to post.
    private func signalArrived(_ signal: Int32) {
        queue.async { [weak self] in
            self?.postSignal(signal)
        }
    }

    private func postSignal(_ signal: Int32) {
        gate.lock()
        defer { gate.unlock() }
        guard !cancelled, let bridge else { return }
        center.post(
            name: name,
            object: bridge,
            userInfo: [NotificationBridge.signalKey: signal])
    }

    private func timerFired() {
        gate.lock()
        guard !cancelled, let bridge else {
            gate.unlock()
            return
        }
        fireCount += 1
        center.post(
            name: name,
            object: bridge,
            userInfo: [
                NotificationBridge.fireCountKey: fireCount,
                NotificationBridge.fireDateKey: Date(),
            ])
        gate.unlock()

        if case .timer(_, interval: nil, _) = trigger {
            cancel()
        }
    }
}
