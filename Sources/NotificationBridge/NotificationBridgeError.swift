#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Why a `NotificationBridge` refused to create a subscription.
///
/// Every case is thrown by one of the `post` methods before anything is installed, so a failed
/// call leaves the process exactly as it was.
public enum NotificationBridgeError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The signal can never be caught by a process (`SIGKILL`, `SIGSTOP`), or the system reserves
    /// it for its own use and refuses to let the bridge observe it.
    case signalCannotBeCaught(Int32)

    /// The signal reports a fault of the thread that raised it (`SIGSEGV`, `SIGBUS`, `SIGILL`,
    /// `SIGFPE`, `SIGTRAP`): catching it would turn the process's next crash into a hang.
    case synchronousFaultSignal(Int32)

    /// The number is not a signal on this platform; valid signal numbers are `validRange`.
    case signalOutOfRange(Int32, validRange: Range<Int32>)

    /// `post(_:onSignals:)` was given an empty list of signals.
    case noSignalsGiven

    /// A repeating timer was asked for an interval of zero or less.
    case nonPositiveInterval(Duration)

    /// A timer was asked to wait a negative amount of time before firing.
    case negativeDelay(Duration)

    /// A timer was given a negative leeway.
    case negativeLeeway(Duration)

    /// Dispatch already watched this signal before the bridge first saw it, and its signal handler
    /// has since been replaced, so signals would never reach the bridge.
    case signalInterceptionUnavailable(Int32)

    /// A sentence saying what was wrong and how to fix it.
    public var description: String {
        switch self {
        case .signalCannotBeCaught(let signal):
            return "Signal \(signal) cannot be caught by a process (SIGKILL and SIGSTOP never can, "
                + "and the C library reserves some others); subscribe to a catchable signal such as "
                + "SIGHUP, SIGUSR1 or SIGUSR2 instead."
        case .synchronousFaultSignal(let signal):
            return "\(Self.name(ofFaultSignal: signal)) (signal \(signal)) reports a fault in the thread "
                + "that caused it, such as a Swift runtime trap (unwrapping nil, a failed precondition) "
                + "or a bad memory access; a process that catches it returns to the faulting "
                + "instruction, faults again and spins forever, so a crash becomes a hang that no "
                + "supervisor notices; do not subscribe to it: let the process crash and have its "
                + "supervisor (systemd, launchd, Kubernetes, …) restart it, and use SIGTERM, SIGHUP, "
                + "SIGUSR1 or SIGUSR2 for the events the service should handle."
        case .signalOutOfRange(let signal, let validRange):
            return "\(signal) is not a signal number on this platform; pass a value from "
                + "\(validRange.lowerBound) through \(validRange.upperBound - 1), for example SIGHUP."
        case .noSignalsGiven:
            return "post(_:onSignals:) needs at least one signal; pass the signals that should "
                + "trigger the notification."
        case .nonPositiveInterval(let interval):
            return "A repeating timer needs a positive interval, but \(interval) was given; pass a "
                + "duration greater than zero, such as .seconds(1)."
        case .negativeDelay(let delay):
            return "A timer cannot fire before it was created, but a delay of \(delay) was given; "
                + "pass .zero to fire as soon as possible, or a positive duration."
        case .negativeLeeway(let leeway):
            return "A timer's leeway must be zero or positive, but \(leeway) was given; pass .zero "
                + "for the most precise timing the system offers."
        case .signalInterceptionUnavailable(let signal):
            return "Signal \(signal) was already watched through a dispatch signal source outside "
                + "NotificationBridge, and its handler has since been reset, so the bridge cannot "
                + "receive it; create the first subscription for this signal through "
                + "NotificationBridge, or do not reset the signal's disposition yourself."
        }
    }

    /// The conventional name of one of `NotificationBridge.synchronousFaultSignals`.
    private static func name(ofFaultSignal signal: Int32) -> String {
        switch signal {
        case SIGSEGV: return "SIGSEGV"
        case SIGBUS: return "SIGBUS"
        case SIGILL: return "SIGILL"
        case SIGFPE: return "SIGFPE"
        case SIGTRAP: return "SIGTRAP"
        default: return "This signal"
        }
    }
}
