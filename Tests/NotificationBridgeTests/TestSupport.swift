import Dispatch
import Foundation
import KatanaTestSupport
import NotificationBridge
import SignalTestSupport
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What a test needs to know about one posted notification.
struct RecordedPost: Sendable {
    let name: Notification.Name
    let object: ObjectIdentifier?
    let signal: Int32?
    let fireCount: Int?
    let fireDate: Date?
    let isOnMarkedQueue: Bool

    init(_ notification: Notification) {
        let info = notification.userInfo
        name = notification.name
        object = notification.object.map { ObjectIdentifier($0 as AnyObject) }
        signal = info?[NotificationBridge.signalKey] as? Int32
        fireCount = info?[NotificationBridge.fireCountKey] as? Int
        fireDate = info?[NotificationBridge.fireDateKey] as? Date
        isOnMarkedQueue = DispatchQueue.getSpecific(key: markedQueueKey) != nil
    }
}

/// Marks a queue so that an observer can tell it runs on it.
let markedQueueKey = DispatchSpecificKey<String>()

/// Records every notification posted to a center, keeping no reference to the posted object; a
/// test awaits posts with ``waitForPosts(_:count:timeout:)``, woken by each post.
final class PostRecorder {
    /// Every post so far, in order.
    let posts: LockedList<RecordedPost>
    private let center: NotificationCenter
    private let observation: any NSObjectProtocol

    /// Starts recording everything posted to `center`.
    init(center: NotificationCenter) {
        let posts = LockedList<RecordedPost>()
        self.posts = posts
        self.center = center
        observation = center.addObserver(forName: nil, object: nil, queue: nil) { posts.append(RecordedPost($0)) }
    }

    deinit {
        center.removeObserver(observation)
    }

    /// All posts so far, in order.
    var all: [RecordedPost] {
        posts.all
    }

    /// The posts named `name`, in order.
    func posts(named name: Notification.Name) -> [RecordedPost] {
        all.filter { $0.name == name }
    }

    /// How many posts named `name` arrived.
    func count(_ name: Notification.Name) -> Int {
        posts(named: name).count
    }

    /// Suspends until at least `count` posts named `name` have arrived.
    func waitForPosts(_ name: Notification.Name, count: Int = 1, timeout: Duration = defaultTestTimeout) async throws {
        try await posts.waitUntil("\(count) posts of \(name.rawValue)", timeout: timeout) { posts in
            posts.lazy.filter { $0.name == name }.count >= count
        }
    }
}

/// A recorder and a bridge on a center of their own: where most tests start.
struct Posting {
    let center = NotificationCenter()
    let recorder: PostRecorder
    let bridge: NotificationBridge

    init() {
        recorder = PostRecorder(center: center)
        bridge = NotificationBridge(center: center)
    }

    /// Lets a witness timer on a bridge of its own post ten times, then cancels it: posts a
    /// cancelled subscription would still make have had the time to show by then.
    func letAWitnessFireTenTimes() async throws {
        let witnessBridge = NotificationBridge(center: center)
        try witnessBridge.post(.witness, every: .milliseconds(1), firstFireAfter: .zero)
        try await recorder.waitForPosts(.witness, count: 10)
        witnessBridge.cancelAll()
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
