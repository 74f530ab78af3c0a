import Foundation
import NotificationBridge

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

// Subscribes a bridge to the signals named by the arguments (e.g. `SIGILL`, or `SIGUSR1 SIGILL`)
// and then makes the program crash, so that `FaultSignalProbeTests` can check that the process
// still ends by a signal (a crash with a synchronous fault signal subscribed used to spin forever)
// and that the subscription was refused.
//
// Prints to standard error, in this order:
//   refused: <the error's description>      or      subscribed
//   trapping
// and then unwraps nil, which raises SIGILL (x86-64) or SIGTRAP (arm64).

let signalsByName: [String: Int32] = [
    "SIGSEGV": SIGSEGV, "SIGBUS": SIGBUS, "SIGILL": SIGILL, "SIGFPE": SIGFPE, "SIGTRAP": SIGTRAP,
    "SIGHUP": SIGHUP, "SIGUSR1": SIGUSR1, "SIGUSR2": SIGUSR2,
]

func report(_ line: String) {
    FileHandle.standardError.write(Data((line + "\n").utf8))
}

let names = CommandLine.arguments.dropFirst()
let signals = names.compactMap { signalsByName[$0] }
guard !signals.isEmpty, signals.count == names.count else {
    report("usage: notification-bridge-fault-probe SIGNAL... (one of \(signalsByName.keys.sorted()))")
    exit(2)
}

let bridge = NotificationBridge(center: NotificationCenter())
do {
    try bridge.post(Notification.Name("fault-probe"), onSignals: signals)
    report("subscribed")
} catch {
    report("refused: \(error)")
}

report("trapping")
// Read from the environment so the optimiser cannot see that it is nil.
let missing: String? = ProcessInfo.processInfo.environment["NOTIFICATION_BRIDGE_FAULT_PROBE_NEVER_SET"]
report(missing!)
report("notification-bridge-fault-probe: the program did not crash")
exit(3)
