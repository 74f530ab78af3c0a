import Foundation

/// Whether the process runs under the thread sanitizer, where every thread hop costs many times
/// more: waits get longer bounds there.
public let isRunningUnderThreadSanitizer: Bool = dlsym(nil, "__tsan_init") != nil

/// How long a test waits by default before it fails: long enough for a busy machine (the suite
/// runs beside CPU hogs, and under the sanitizer), short enough that a bug fails fast instead of
/// hanging CI. A wait is a safety net, never a measure of speed.
public let defaultTestTimeout: Duration = isRunningUnderThreadSanitizer ? .seconds(120) : .seconds(30)

/// How long code that holds one of the store's threads for a test (a fixture blocked on a latch or
/// a gate, a stream's output held back) waits for its release before giving up: far longer than
/// any test takes, even under the thread sanitizer on a loaded machine (where tests have been
/// starved for over three minutes), so that a hold never ends by itself in the middle of a test and
/// lets it see the work it holds back. A test releases its holds on every way out (`defer`).
public let holdTimeout: Duration = .seconds(300)

/// A bounded wait ran out: what it waited for, and for how long.
public struct TimedOut: Error, CustomStringConvertible, Equatable {
    /// What the test was waiting for.
    public let waitingFor: String
    /// How long it waited.
    public let after: Duration

    /// A time-out waiting for `waitingFor` after `after`.
    public init(waitingFor: String, after: Duration) {
        self.waitingFor = waitingFor
        self.after = after
    }

    /// `timed out after 30 seconds waiting for <what>`.
    public var description: String {
        "timed out after \(after) waiting for \(waitingFor)"
    }
}
