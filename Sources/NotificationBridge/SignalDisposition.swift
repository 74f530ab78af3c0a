#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A snapshot of how the process reacts to one signal: the `sigaction` handler, flags and mask.
///
/// Reading and writing go straight through `sigaction(2)`, so a snapshot taken before a change can
/// later be written back to restore the earlier behaviour exactly.
// @unchecked Sendable: `sigaction` is a plain C value (function pointer, integers, bit set) with no shared storage.
struct SignalDisposition: Equatable, @unchecked Sendable {
    /// The raw C value.
    private(set) var action: sigaction

    /// Wraps an existing `sigaction` value.
    init(action: sigaction) {
        self.action = action
    }

    /// Reads how the process currently reacts to `signal`, or returns `nil` when the system does
    /// not let that signal's disposition be queried.
    static func current(of signal: Int32) -> SignalDisposition? {
        var action = sigaction()
        guard sigaction(signal, nil, &action) == 0 else { return nil }
        return SignalDisposition(action: action)
    }

    /// A disposition that ignores the signal, with the given flags and blocked signals.
    static func ignoring(flags: Int32 = 0, blocking blockedSignals: [Int32] = []) -> SignalDisposition {
        var action = sigaction()
        #if os(Linux)
        action.__sigaction_handler.sa_handler = SIG_IGN
        #else
        action.__sigaction_u.__sa_handler = SIG_IGN
        #endif
        action.sa_flags = flags
        sigemptyset(&action.sa_mask)
        for blocked in blockedSignals {
            sigaddset(&action.sa_mask, blocked)
        }
        return SignalDisposition(action: action)
    }

    /// Makes this the disposition of `signal`; returns whether the system accepted it.
    @discardableResult
    func install(for signal: Int32) -> Bool {
        var action = self.action
        return sigaction(signal, &action, nil) == 0
    }

    /// The handler's address: 0 for the default action, 1 for "ignore", else a function.
    var handlerAddress: UInt {
        #if os(Linux)
        return Unsafe.address(of: action.__sigaction_handler.sa_handler)
        #else
        return Unsafe.address(of: action.__sigaction_u.__sa_handler)
        #endif
    }

    /// Whether the signal takes its default action (often: terminate the process).
    var isDefaultAction: Bool {
        handlerAddress == Unsafe.address(of: SIG_DFL)
    }

    /// Whether the signal is discarded by the kernel as soon as it is sent.
    var isIgnored: Bool {
        handlerAddress == Unsafe.address(of: SIG_IGN)
    }

    /// Whether a function handles the signal (neither the default action nor "ignore").
    var hasHandlerFunction: Bool {
        !isDefaultAction && !isIgnored
    }

    /// The flags (`SA_RESTART`, `SA_SIGINFO`, …) as the system reports them.
    var flags: Int32 {
        action.sa_flags
    }

    /// The signals blocked while the handler runs, in ascending order.
    var blockedSignals: [Int32] {
        var mask = action.sa_mask
        return (1..<Int32(NSIG)).filter { sigismember(&mask, $0) == 1 }
    }

    static func == (lhs: SignalDisposition, rhs: SignalDisposition) -> Bool {
        lhs.handlerAddress == rhs.handlerAddress
            && lhs.flags == rhs.flags
            && lhs.blockedSignals == rhs.blockedSignals
    }
}
