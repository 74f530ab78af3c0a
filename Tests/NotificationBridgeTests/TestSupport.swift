import Dispatch
import Foundation
import NotificationBridge
import SignalTestSupport
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Polls `condition` until it holds or `timeout` passes; returns whether it held. Every wait in
/// these tests goes through here, so a bug fails the test instead of hanging it.
func waitUntil(
    timeout: Duration = .seconds(5),
    _ condition: () -> Bool
) async -> Bool {
    let clock = ContinuousClock()
    let deadline = clock.now + timeout
    while !condition() {
        if clock.now >= deadline { return false }
        try? await Task.sleep(for: .milliseconds(1))
    }
    return true
}

/// A value several threads read and write, guarded by a lock.
// @unchecked Sendable: `value` is only touched while holding `lock`.
final class Guarded<Value>: @unchecked Sendable {
    private let lock = NSLock()
    // guarded by `lock`
    private var value: Value

    init(_ value: Value) {
        self.value = value
    }

    func get() -> Value {
        lock.withLock { value }
    }

    func set(_ newValue: Value) {
        lock.withLock { value = newValue }
    }

    @discardableResult
    func mutate<Result>(_ body: (inout Value) -> Result) -> Result {
        lock.withLock { body(&value) }
    }
}

/// Runs `body` on a thread of its own, so that a test never blocks one of Swift Testing's
/// cooperative threads with a call that may block.
func onOwnThread(_ body: @escaping @Sendable () -> Void) {
    Thread { body() }.start()
}

/// Spins (on a posting thread, never a cooperative one) until `condition` holds or `timeout`
/// passes; returns whether it held.
func spinUntil(timeout: Duration = .seconds(10), _ condition: () -> Bool) -> Bool {
    let deadline = ContinuousClock.now + timeout
    while !condition() {
        if ContinuousClock.now >= deadline { return false }
        usleep(20)
    }
    return true
}

/// What a test needs to know about one posted notification.
struct RecordedPost: Sendable {
    let name: Notification.Name
    let object: ObjectIdentifier?
    let signal: Int32?
    let fireCount: Int?
    let fireDate: Date?
    let isOnMarkedQueue: Bool
}

/// Marks a queue so that an observer can tell it runs on it.
let markedQueueKey = DispatchSpecificKey<String>()

/// Records every notification posted to a center, keeping no reference to the posted object.
// @unchecked Sendable: `posts` is only touched while holding `lock`.
final class PostRecorder: @unchecked Sendable {
    private let lock = NSLock()
    // guarded by `lock`
    private var posts: [RecordedPost] = []
    private var observation: NSObjectProtocol?

    /// Starts recording everything posted to `center`.
    init(center: NotificationCenter) {
        observation = center.addObserver(forName: nil, object: nil, queue: nil) {
            [weak self] notification in
            self?.record(notification)
        }
    }

    private func record(_ notification: Notification) {
        let info = notification.userInfo
        let post = RecordedPost(
            name: notification.name,
            object: notification.object.map { ObjectIdentifier($0 as AnyObject) },
            signal: info?[NotificationBridge.signalKey] as? Int32,
            fireCount: info?[NotificationBridge.fireCountKey] as? Int,
            fireDate: info?[NotificationBridge.fireDateKey] as? Date,
            isOnMarkedQueue: DispatchQueue.getSpecific(key: markedQueueKey) != nil)
        lock.withLock { posts.append(post) }
    }

    /// All posts so far, in order.
    var all: [RecordedPost] {
        lock.withLock { posts }
    }

    /// The posts named `name`, in order.
    func posts(named name: Notification.Name) -> [RecordedPost] {
        lock.withLock { posts.filter { $0.name == name } }
    }

    /// How many posts named `name` arrived.
    func count(_ name: Notification.Name) -> Int {
        posts(named: name).count
    }
}

/// A signal disposition as read with `sigaction`, independent of the module's own code.
struct ObservedDisposition: Equatable, CustomStringConvertible {
    let handler: UInt
    let flags: Int32
    let blockedSignals: [Int32]

    static let defaultHandler = unsafeBitCast(SIG_DFL, to: UInt.self)
    static let ignoreHandler = unsafeBitCast(SIG_IGN, to: UInt.self)

    /// Reads the current disposition of `signal`.
    init(of signal: Int32) {
        var action = sigaction()
        sigaction(signal, nil, &action)
        handler = unsafeBitCast(action.__sigaction_handler.sa_handler, to: UInt.self)
        flags = action.sa_flags
        var mask = action.sa_mask
        blockedSignals = (1..<Int32(NSIG)).filter { sigismember(&mask, $0) == 1 }
    }

    var isDefault: Bool { handler == Self.defaultHandler }
    var isIgnored: Bool { handler == Self.ignoreHandler }
    var hasHandlerFunction: Bool { !isDefault && !isIgnored }

    var description: String {
        "handler 0x\(String(handler, radix: 16)) flags 0x\(String(flags, radix: 16)) "
            + "mask \(blockedSignals)"
    }
}

/// Sets `signal`'s disposition to a handler-less action (`SIG_IGN` or `SIG_DFL`) with the given
/// flags and mask.
func setDisposition(
    of signal: Int32, ignore: Bool, flags: Int32 = 0, blocking blocked: [Int32] = []
) {
    var action = sigaction()
    action.__sigaction_handler.sa_handler = ignore ? SIG_IGN : SIG_DFL
    action.sa_flags = flags
    sigemptyset(&action.sa_mask)
    for signal in blocked {
        sigaddset(&action.sa_mask, signal)
    }
    sigaction(signal, &action, nil)
}

/// Runs `body` with `signal` set to a known disposition (ignored, unless told otherwise), then
/// puts back exactly the disposition the process had before. The body runs with exclusive signal
/// access (shared with the other test targets of the process, see `SignalTestSupport`); if that
/// access is not granted in time, the test fails and the body does not run.
func withKnownDisposition(
    of signals: [Int32],
    ignore: Bool = true,
    flags: Int32 = 0,
    blocking blocked: [Int32] = [],
    _ body: () async throws -> Void
) async rethrows {
    let ran: Void? = try await withExclusiveSignalAccess(holder: "NotificationBridgeTests") {
        try await withKnownDispositionHeld(of: signals, ignore: ignore, flags: flags, blocking: blocked, body)
    }
    if ran == nil {
        Issue.record("exclusive signal access not granted in time (held by \(ExclusiveSignalAccess.currentHolder ?? "nobody"))")
    }
}

private func withKnownDispositionHeld(
    of signals: [Int32],
    ignore: Bool,
    flags: Int32,
    blocking blocked: [Int32],
    _ body: () async throws -> Void
) async rethrows {
    var originals: [Int32: sigaction] = [:]
    for signal in signals {
        var original = sigaction()
        sigaction(signal, nil, &original)
        originals[signal] = original
        setDisposition(of: signal, ignore: ignore, flags: flags, blocking: blocked)
    }
    defer {
        for (signal, original) in originals {
            var original = original
            sigaction(signal, &original, nil)
        }
    }
    try await body()
}

extension Notification.Name {
    static let testSignal = Notification.Name("NotificationBridgeTests.signal")
    static let testTimer = Notification.Name("NotificationBridgeTests.timer")
    static let witness = Notification.Name("NotificationBridgeTests.witness")
}
