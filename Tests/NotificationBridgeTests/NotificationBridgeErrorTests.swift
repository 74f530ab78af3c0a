import Foundation
import NotificationBridge
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

struct NotificationBridgeErrorTests {
    @Test(arguments: [
        NotificationBridgeError.signalCannotBeCaught(9),
        .signalOutOfRange(0, validRange: 1..<65),
        .noSignalsGiven,
        .nonPositiveInterval(.zero),
        .negativeDelay(.seconds(-1)),
        .negativeLeeway(.milliseconds(-1)),
        .signalInterceptionUnavailable(12),
        .synchronousFaultSignal(SIGILL),
    ])
    func descriptionSaysWhatWasWrongAndHowToFixIt(error: NotificationBridgeError) {
        let text = error.description
        #expect(text.count > 40)
        #expect(text.contains(";"), "names the problem, then the fix: \(text)")
    }

    @Test
    func descriptionNamesTheOffendingValue() {
        #expect(NotificationBridgeError.signalCannotBeCaught(9).description.contains("9"))
        #expect(
            NotificationBridgeError.signalOutOfRange(70, validRange: 1..<65).description
                .contains("1 through 64"))
        #expect(NotificationBridgeError.nonPositiveInterval(.zero).description.contains("0"))
    }

    @Test(arguments: [(SIGSEGV, "SIGSEGV"), (SIGBUS, "SIGBUS"), (SIGILL, "SIGILL"), (SIGFPE, "SIGFPE"), (SIGTRAP, "SIGTRAP")])
    func faultSignalDescriptionNamesTheSignalExplainsTheHangAndTheFix(signal: Int32, name: String) {
        let text = NotificationBridgeError.synchronousFaultSignal(signal).description
        #expect(text.hasPrefix("\(name) (signal \(signal))"), "\(text)")
        #expect(text.contains("fault in the thread that caused it"))
        #expect(text.contains("crash becomes a hang"))
        #expect(text.contains("let the process crash and have its supervisor"))
        #expect(text.contains("restart it"))
    }
}
