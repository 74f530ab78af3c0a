import Foundation
import Testing

@testable import NotificationBridge

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension SignalPostingTests {
    /// Each synchronous fault signal is refused, alone and within a list, before anything is
    /// subscribed: no disposition changes, not even that of a valid signal earlier in the list.
    @Test(arguments: [SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGTRAP])
    func synchronousFaultSignalIsRefusedAloneAndWithinAList(fault: Int32) async {
        await withKnownDisposition(of: [SIGUSR1]) {
            let usr1Before = ObservedDisposition(of: SIGUSR1)
            let faultBefore = ObservedDisposition(of: fault)
            let bridge = NotificationBridge(center: NotificationCenter())

            #expect(throws: NotificationBridgeError.synchronousFaultSignal(fault)) {
                try bridge.post(.testSignal, onSignal: fault)
            }
            #expect(throws: NotificationBridgeError.synchronousFaultSignal(fault)) {
                try bridge.post(.testSignal, onSignals: [fault])
            }
            #expect(throws: NotificationBridgeError.synchronousFaultSignal(fault)) {
                try bridge.post(.testSignal, onSignals: [SIGUSR1, fault, SIGUSR2])
            }
            // As for the other invalid signals, the first invalid one in the list is reported.
            #expect(throws: NotificationBridgeError.synchronousFaultSignal(fault)) {
                try bridge.post(.testSignal, onSignals: [SIGUSR1, fault, SIGKILL])
            }
            #expect(throws: NotificationBridgeError.signalCannotBeCaught(SIGKILL)) {
                try bridge.post(.testSignal, onSignals: [SIGKILL, fault])
            }

            #expect(bridge.activeSubscriptions.isEmpty)
            #expect(ObservedDisposition(of: SIGUSR1) == usr1Before)
            #expect(ObservedDisposition(of: fault) == faultBefore)
            #expect(!SignalRegistry.shared.isListening(to: fault))
            #expect(!SignalRegistry.shared.isListening(to: SIGUSR1))
        }
    }

    @Test
    func theRefusedSignalsAreExactlyTheFiveSynchronousFaults() {
        #expect(Set(NotificationBridge.synchronousFaultSignals) == [SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGTRAP])
    }
}
