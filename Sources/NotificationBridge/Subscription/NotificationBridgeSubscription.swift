import Dispatch
import Foundation

/// One live link from an event source (signals or a timer) to a notification.
///
/// The bridge keeps the subscription alive, so dropping this handle does not stop it; call
/// `cancel()`, the bridge's `cancelAll()`, or release the bridge.
///
/// What `cancel()` waits for: no post of the subscription begins once it has been called. A post
/// that had already begun on another thread is waited for, so that nothing posts after `cancel()`
/// returns, with two exceptions, where waiting would never end: a post running on the calling
/// thread (the cancel comes from one of that post's observers), and a post whose thread is itself
/// blocked in a `cancel()` waiting, directly or through other cancels, for a post on the calling
/// thread (observers of two bridges cancelling each other's subscriptions at the same moment). In
/// both cases that one post still reaches its remaining observers after `cancel()` returns.
///
/// The life-cycle itself is ``SubscriptionLifecycle``; this class takes ``PostingCoordinator``'s
/// lock around it and carries out what it returns, outside the lock.
// @unchecked Sendable: `lifecycle` is only touched while holding `coordinator`'s lock; everything
// else is immutable or Sendable.
public final class NotificationBridgeSubscription: @unchecked Sendable {
    /// What starts the posts.
    enum Trigger: Sendable {
        /// Posts whenever one of the signals arrives.
        case signals([Int32])
        /// Posts after `delay` and then every `interval`, or only once when `interval` is `nil`.
        case timer(delay: Duration, interval: Duration?, leeway: Duration)
    }

    /// What a started subscription listens with; released exactly once, when it ends.
    enum Listening {
        /// A resumed dispatch timer that posts on the bridge's queue.
        case timer(DispatchSourceTimer)
        /// The listeners registered with the signal registry.
        case signals([SignalRegistry.Token])
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

    /// Owns the lock that guards `lifecycle`, and decides whether a cancel may wait for a post.
    private let coordinator = PostingCoordinator.shared

    // guarded by `coordinator`'s lock
    private var lifecycle: SubscriptionLifecycle<PostingThread, Listening>

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
        if case .timer(_, interval: nil, _) = trigger {
            lifecycle = SubscriptionLifecycle(postsOnce: true)
        } else {
            lifecycle = SubscriptionLifecycle(postsOnce: false)
        }
    }

    /// Whether the subscription can still post: false once it was cancelled (directly, by
    /// `cancelAll()`, or by the bridge going away) or, for a one-shot timer, once it has posted.
    /// Never waits for a post in progress.
    public var isActive: Bool {
        coordinator.withLock { lifecycle.isActive }
    }

    /// Stops the posts: none begins after this call, and, when it returns, the signal's previous
    /// disposition is restored if this was its last subscription. It waits for a post already in
    /// progress on another thread, so that nothing posts after it returns, except where that wait
    /// could never end (see the type's documentation): a post on the calling thread, or one whose
    /// thread waits in a cancel for a post on the calling thread. Calling it again does nothing
    /// more than wait the same way. Do not call it while holding a lock (or blocking a queue) that
    /// an observer of this subscription's notifications needs.
    public func cancel() {
        let caller = PostingThread.current
        let cancellation = coordinator.withLock { lifecycle.cancel(from: caller) }
        if cancellation.cancelledNow {
            if let listening = cancellation.releasing {
                release(listening)
            }
            bridge?.forget(self)
        }
        for thread in cancellation.postsToAwait {
            coordinator.awaitPostEnd(of: ObjectIdentifier(self), on: thread, by: caller) {
                lifecycle.isPosting(on: thread)
            }
        }
    }

    /// Begins listening; throws (after undoing any partial work) when a signal cannot be taken.
    func start() throws {
        switch trigger {
        case .signals(let signals):
            hand(.signals(try listen(to: signals)))
        case .timer(let delay, let interval, let leeway):
            hand(.timer(startTimer(delay: delay, interval: interval, leeway: leeway)))
        }
    }

    // MARK: - Starting and stopping

    /// Gives the life-cycle what the subscription listens with, or releases it at once when the
    /// subscription was cancelled while starting.
    private func hand(_ listening: Listening) {
        let outcome = coordinator.withLock { lifecycle.started(with: listening) }
        if case .release(let listening) = outcome {
            release(listening)
        }
    }

    private func release(_ listening: Listening) {
        switch listening {
        case .timer(let source):
            source.cancel()
        case .signals(let tokens):
            for token in tokens {
                registry.removeListener(token)
            }
        }
    }

    private func listen(to signals: [Int32]) throws -> [SignalRegistry.Token] {
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
        return tokens
    }

    /// A resumed timer: a dispatch source must never be released while suspended, so it is resumed
    /// before anyone can cancel it.
    private func startTimer(delay: Duration, interval: Duration?, leeway: Duration) -> DispatchSourceTimer {
        let source = DispatchSource.makeTimerSource(queue: queue)
        source.schedule(
            deadline: .now() + delay.dispatchInterval,
            repeating: interval?.dispatchInterval ?? .never,
            leeway: leeway.dispatchInterval)
        source.setEventHandler { [weak self] in
            self?.timerFired()
        }
        source.resume()
        return source
    }

    // MARK: - Posting

    /// Called on the registry's queue; hops to the bridge's queue to post.
    private func signalArrived(_ signal: Int32) {
        queue.async { [weak self] in
            self?.postSignal(signal)
        }
    }

    private func postSignal(_ signal: Int32) {
        post { _ in [NotificationBridge.signalKey: signal] }
    }

    private func timerFired() {
        post { fireCount in
            [NotificationBridge.fireCountKey: fireCount, NotificationBridge.fireDateKey: Date()]
        }
    }

    /// Posts once, if the life-cycle allows it, with the lock released while observers run.
    private func post(userInfo: (_ fireCount: Int) -> [AnyHashable: Any]) {
        guard let bridge else { return }
        let thread = PostingThread.current
        let decision = coordinator.withLock { lifecycle.beginPost(on: thread) }
        guard case .post(let fireCount) = decision else { return }

        center.post(name: name, object: bridge, userInfo: userInfo(fireCount))

        let end = coordinator.withLock {
            let end = lifecycle.endPost(on: thread)
            if case .wakeCancellers = end, !lifecycle.isPosting(on: thread) {
                coordinator.postEndedWhileLocked(of: ObjectIdentifier(self), on: thread)
            }
            return end
        }
        if case .finished(let listening) = end {
            if let listening {
                release(listening)
            }
            bridge.forget(self)
        }
    }
}
