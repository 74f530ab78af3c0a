import Foundation
import NotificationBridge
import Testing

struct NotificationBridgeErrorTests {
    @Test(arguments: [
        NotificationBridgeError.signalCannotBeCaught(9),
        .signalOutOfRange(0, validRange: 1..<65),
        .noSignalsGiven,
        .nonPositiveInterval(.zero),
        .negativeDelay(.seconds(-1)),
        .negativeLeeway(.milliseconds(-1)),
        .signalInterceptionUnavailable(12),
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
}
