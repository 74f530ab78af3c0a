import Dispatch
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Turns operating-system events (signals and timers) into notifications on a
/// `NotificationCenter`, so that a service can react to them like to any other notification.
///
/// Every `post` method returns a subscription that stays active until it is cancelled, until
/// `cancelAll()` is called, or until the bridge is released. Posted notifications carry the
/// bridge as their `object`.
///
/// Signals are received through dispatch signal sources, never inside a signal handler. While at
/// least one subscription (of any bridge) wants a signal, the process no longer takes that
/// signal's default action; when the last one is cancelled the disposition found before is
/// restored exactly. The kernel merges signals that arrive faster than they are handled, so a
/// burst of identical signals yields at least one post, not one post per signal.
///
/// Synchronous fault signals (`synchronousFaultSignals`) are refused: catching them would turn a
/// crash into a hang.
///
/// On Linux, dispatch's own C handler forwards a watched signal to its event thread and, as a side
/// effect, leaves the thread that first caught it with most signals blocked.
// @unchecked Sendable: `subscriptions` is only touched while holding `lock`; everything else is
// immutable and Sendable.
public final class NotificationBridge: @unchecked Sendable {
    /// `userInfo` key of a signal post: the signal number, an `Int32`.
    public static let signalKey = "NotificationBridge.signal"

    /// `userInfo` key of a timer post: how often this subscription has fired, an `Int` starting at 1.
    public static let fireCountKey = "NotificationBridge.fireCount"

    /// `userInfo` key of a timer post: when the timer fired, a `Date`.
    public static let fireDateKey = "NotificationBridge.fireDate"

    /// The signal numbers this platform knows: 1 up to, but excluding, the platform's signal count.
    public static let validSignals: Range<Int32> = 1..<Int32(NSIG)

    /// The signals that report a fault in the thread that caused it (bad memory access, illegal
    /// or trap instruction, arithmetic error). The bridge refuses them: a process that catches one
    /// goes back to the faulting instruction and faults again forever instead of crashing.
    public static let synchronousFaultSignals: [Int32] = [SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGTRAP]

    /// Where the notifications are posted.
    public let center: NotificationCenter

    /// The queue notifications are posted from.
    public let queue: DispatchQueue

    /// Where signal subscriptions are registered; the process-wide registry outside tests.
    private let registry: SignalRegistry

    /// Serialises access to `subscriptions`.
    ///
    /// Lock order: a leaf. Nothing else is taken while it is held: subscriptions are cancelled only
    /// after it is released, and it is never taken while `PostingCoordinator`'s lock or a lock of
    /// the signal registry is held.
    private let lock = NSLock()

    // guarded by `lock`: every subscription that is still active, by identity.
    private var subscriptions: [ObjectIdentifier: NotificationBridgeSubscription] = [:]

    /// Creates a bridge posting to `center`. Notifications are posted from `queue`, or from a
    /// serial queue of the bridge's own when `queue` is `nil`; pass a serial queue so that posts
    /// never overlap.
    public convenience init(center: NotificationCenter = .default, queue: DispatchQueue? = nil) {
        self.init(center: center, queue: queue, registry: .shared)
    }

    /// Creates a bridge that registers its signal subscriptions with `registry`.
    init(center: NotificationCenter, queue: DispatchQueue?, registry: SignalRegistry) {
        self.center = center
        self.queue = queue ?? DispatchQueue(label: "NotificationBridge.posting")
        self.registry = registry
    }

    deinit {
        cancelAll()
    }

    /// Posts `name` every time the process receives `signal`, with the signal number under
    /// `signalKey`. Throws `NotificationBridgeError` for a signal that does not exist, cannot be
    /// caught, or is one of `synchronousFaultSignals`.
    @discardableResult
    public func post(_ name: Notification.Name, onSignal signal: Int32) throws
        -> NotificationBridgeSubscription
    {
        try post(name, onSignals: [signal])
    }

    /// Posts `name` every time the process receives any of `signals`, with the signal number that
    /// arrived under `signalKey`. Throws `NotificationBridgeError` when the list is empty or a
    /// signal does not exist, cannot be caught, or is one of `synchronousFaultSignals`; the error
    /// names the first such signal in the list, and none of the signals is subscribed.
    @discardableResult
    public func post(_ name: Notification.Name, onSignals signals: [Int32]) throws
        -> NotificationBridgeSubscription
    {
        guard !signals.isEmpty else { throw NotificationBridgeError.noSignalsGiven }
        var distinctSignals: [Int32] = []
        for signal in signals where !distinctSignals.contains(signal) {
            try Self.validate(signal: signal)
            distinctSignals.append(signal)
        }
        return try start(name, trigger: .signals(distinctSignals))
    }

    /// Posts `name` every `interval`, first after `firstFireAfter` (one `interval` when `nil`).
    /// `leeway` lets the system delay a fire by up to that much to save energy. Posts carry the
    /// fire count under `fireCountKey` and the time under `fireDateKey`.
    @discardableResult
    public func post(
        _ name: Notification.Name,
        every interval: Duration,
        leeway: Duration = .zero,
        firstFireAfter: Duration? = nil
    ) throws -> NotificationBridgeSubscription {
        guard interval > .zero else { throw NotificationBridgeError.nonPositiveInterval(interval) }
        let delay = firstFireAfter ?? interval
        guard delay >= .zero else { throw NotificationBridgeError.negativeDelay(delay) }
        guard leeway >= .zero else { throw NotificationBridgeError.negativeLeeway(leeway) }
        return try start(name, trigger: .timer(delay: delay, interval: interval, leeway: leeway))
    }

    /// Posts `name` once, `delay` from now (`.zero` posts as soon as possible), with a fire count
    /// of 1 under `fireCountKey` and the time under `fireDateKey`. The subscription becomes
    /// inactive after the post.
    @discardableResult
    public func post(
        _ name: Notification.Name,
        after delay: Duration,
        leeway: Duration = .zero
    ) throws -> NotificationBridgeSubscription {
        guard delay >= .zero else { throw NotificationBridgeError.negativeDelay(delay) }
        guard leeway >= .zero else { throw NotificationBridgeError.negativeLeeway(leeway) }
        return try start(name, trigger: .timer(delay: delay, interval: nil, leeway: leeway))
    }

    /// Cancels every active subscription of this bridge, each as `NotificationBridgeSubscription`'s
    /// `cancel()` does: when it returns none of them posts again, except for a post that `cancel()`
    /// does not wait for (one running on the calling thread, or one whose thread is waiting in a
    /// cancel for a post on the calling thread).
    public func cancelAll() {
        let cancelled: [NotificationBridgeSubscription] = lock.withLock {
            let all = Array(subscriptions.values)
            subscriptions = [:]
            return all
        }
        for subscription in cancelled {
            subscription.cancel()
        }
    }

    /// The subscriptions of this bridge that are still active.
    public var activeSubscriptions: [NotificationBridgeSubscription] {
        lock.withLock { Array(subscriptions.values) }
    }

    /// Drops a subscription that has been cancelled.
    func forget(_ subscription: NotificationBridgeSubscription) {
        _ = lock.withLock {
            subscriptions.removeValue(forKey: ObjectIdentifier(subscription))
        }
    }

    private func start(_ name: Notification.Name, trigger: NotificationBridgeSubscription.Trigger)
        throws -> NotificationBridgeSubscription
    {
        let subscription = NotificationBridgeSubscription(
            name: name, trigger: trigger, bridge: self, registry: registry)
        lock.withLock {
            subscriptions[ObjectIdentifier(subscription)] = subscription
        }
        do {
            try subscription.start()
        } catch {
            subscription.cancel()
            throw error
        }
        return subscription
    }

    private static func validate(signal: Int32) throws {
        guard validSignals.contains(signal) else {
            throw NotificationBridgeError.signalOutOfRange(signal, validRange: validSignals)
        }
        guard signal != SIGKILL, signal != SIGSTOP else {
            throw NotificationBridgeError.signalCannotBeCaught(signal)
        }
        guard !synchronousFaultSignals.contains(signal) else {
            throw NotificationBridgeError.synchronousFaultSignal(signal)
        }
    }
}
