import Dispatch
import Foundation
import KatanaTestSupport
import Testing

@testable import NotificationBridge

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Every test that touches a signal lives here: signals and their dispositions belong to the
/// whole process, so these tests run one after another. Each sets a known disposition first and
/// restores the original afterwards, and only SIGHUP, SIGUSR1 and SIGUSR2 are ever sent.
@Suite(.serialized)
struct SignalPostingTests {
    @Test
    func signalPostCarriesSignalNumberAndBridge() async throws {
        try await withKnownDisposition(of: [SIGUSR1]) {
            let posting = Posting()
            let subscription = try posting.bridge.post(.testSignal, onSignal: SIGUSR1)
            defer { subscription.cancel() }

            try await posting.send(SIGUSR1)
            let post = try #require(posting.recorder.posts(named: .testSignal).first)
            #expect(post.signal == SIGUSR1)
            #expect(post.object == ObjectIdentifier(posting.bridge))
            #expect(post.fireCount == nil)
        }
    }

    @Test
    func lastCancelRestoresPreviousDispositionExactly() async throws {
        let flags = Int32(SA_RESTART) | Int32(SA_NODEFER)
        try await withKnownDisposition(of: [SIGUSR1], flags: flags, blocking: [SIGUSR2, SIGHUP]) {
            let before = ObservedDisposition(of: SIGUSR1)
            #expect(before.isIgnored)
            // Under the thread sanitizer, its sigaction interceptor may report a fuller mask.
            #expect(Set(before.blockedSignals).isSuperset(of: [SIGHUP, SIGUSR2]))

            let bridge = NotificationBridge(center: NotificationCenter())
            let first = try bridge.post(.testSignal, onSignal: SIGUSR1)
            let second = try bridge.post(.testSignal, onSignal: SIGUSR1)
            let whileSubscribed = ObservedDisposition(of: SIGUSR1)
            #expect(whileSubscribed.hasHandlerFunction, "\(whileSubscribed)")

            first.cancel()
            #expect(ObservedDisposition(of: SIGUSR1) == whileSubscribed)

            second.cancel()
            #expect(ObservedDisposition(of: SIGUSR1) == before)
        }
    }

    /// Subscribing takes the signal over from its default action (which would end the test
    /// process) or from being ignored; the last cancel gives the disposition back as it was.
    @Test(arguments: [(SIGUSR2, false), (SIGHUP, true)])
    func signalIsDeliveredWhileSubscribedAndItsDispositionIsBackAfterLastCancel(signal: Int32, ignored: Bool) async throws {
        try await withKnownDisposition(of: [signal], ignore: ignored) {
            let before = ObservedDisposition(of: signal)
            #expect(ignored ? before.isIgnored : before.isDefault)
            let posting = Posting()
            let subscription = try posting.bridge.post(.testSignal, onSignal: signal)
            #expect(ObservedDisposition(of: signal).hasHandlerFunction)

            try await posting.send(signal)

            subscription.cancel()
            #expect(ObservedDisposition(of: signal) == before)
            if ignored {
                // Ignored again: sending it now is harmless and posts nothing.
                kill(getpid(), signal)
                #expect(posting.recorder.count(.testSignal) == 1)
            }
        }
    }

    @Test
    func subscribingAgainAfterLastCancelStillReceivesSignals() async throws {
        try await withKnownDisposition(of: [SIGUSR1]) {
            let before = ObservedDisposition(of: SIGUSR1)
            let posting = Posting()
            var takenOver: ObservedDisposition?

            for round in 1...3 {
                let subscription = try posting.bridge.post(.testSignal, onSignal: SIGUSR1)
                let during = ObservedDisposition(of: SIGUSR1)
                #expect(during.hasHandlerFunction, "round \(round): \(during)")
                if let takenOver {
                    #expect(during == takenOver, "round \(round)")
                }
                takenOver = during

                try await posting.send(SIGUSR1, expectingPosts: round)

                subscription.cancel()
                #expect(ObservedDisposition(of: SIGUSR1) == before, "round \(round)")
            }
        }
    }

    @Test
    func dispatchInstallsItsHandlerOnlyOnceSoTheRegistryReinstallsIt() async throws {
        try await withKnownDisposition(of: [SIGUSR2]) {
            // Make sure dispatch has registered SIGUSR2 at least once, through the shared registry.
            let shared = NotificationBridge(center: NotificationCenter())
            try shared.post(.testSignal, onSignal: SIGUSR2).cancel()
            #expect(ObservedDisposition(of: SIGUSR2).isIgnored)

            // A plain dispatch signal source registered now leaves the disposition alone.
            let source = DispatchSource.makeSignalSource(signal: SIGUSR2, queue: .global())
            let registered = LockedList<String>()
            source.setRegistrationHandler { registered.append("registered") }
            source.setEventHandler {}
            source.resume()
            try await registered.waitForCount(1)
            #expect(ObservedDisposition(of: SIGUSR2).isIgnored)
            source.cancel()

            // A registry that never saw dispatch install its handler cannot get the signal back,
            // and says so instead of silently never posting.
            let fresh = NotificationBridge(
                center: NotificationCenter(), queue: nil, registry: SignalRegistry())
            #expect(throws: NotificationBridgeError.signalInterceptionUnavailable(SIGUSR2)) {
                try fresh.post(.testSignal, onSignal: SIGUSR2)
            }
            #expect(ObservedDisposition(of: SIGUSR2).isIgnored)

            // The shared registry recorded dispatch's handler and puts it back.
            let posting = Posting()
            let subscription = try posting.bridge.post(.testSignal, onSignal: SIGUSR2)
            #expect(ObservedDisposition(of: SIGUSR2).hasHandlerFunction)
            try await posting.send(SIGUSR2)
            subscription.cancel()
            #expect(ObservedDisposition(of: SIGUSR2).isIgnored)
        }
    }

    @Test
    func twoBridgesOnOneSignalBothPost() async throws {
        try await withKnownDisposition(of: [SIGUSR1]) {
            let before = ObservedDisposition(of: SIGUSR1)
            let first = Posting()
            let second = Posting()
            let firstSubscription = try first.bridge.post(.testSignal, onSignal: SIGUSR1)
            let secondSubscription = try second.bridge.post(.testSignal, onSignal: SIGUSR1)

            try await first.send(SIGUSR1)
            try await second.recorder.waitForPosts(.testSignal)
            #expect(first.recorder.all.first?.object == ObjectIdentifier(first.bridge))
            #expect(second.recorder.all.first?.object == ObjectIdentifier(second.bridge))

            firstSubscription.cancel()
            #expect(ObservedDisposition(of: SIGUSR1).hasHandlerFunction)
            secondSubscription.cancel()
            #expect(ObservedDisposition(of: SIGUSR1) == before)
        }
    }

    @Test
    func severalSubscriptionsOnOneSignalAllPost() async throws {
        try await withKnownDisposition(of: [SIGHUP]) {
            let posting = Posting()
            let names = (1...3).map { Notification.Name("NotificationBridgeTests.several.\($0)") }
            for name in names {
                try posting.bridge.post(name, onSignal: SIGHUP)
            }
            #expect(posting.bridge.activeSubscriptions.count == 3)

            kill(getpid(), SIGHUP)
            for name in names {
                try await posting.recorder.waitForPosts(name)
            }

            posting.bridge.cancelAll()
            #expect(ObservedDisposition(of: SIGHUP).isIgnored)
        }
    }

    @Test
    func cancelledSubscriptionStopsPostingWhileOthersContinue() async throws {
        try await withKnownDisposition(of: [SIGUSR1]) {
            let posting = Posting()
            let cancelled = try posting.bridge.post(.testSignal, onSignal: SIGUSR1)
            let kept = try posting.bridge.post(.witness, onSignal: SIGUSR1)

            cancelled.cancel()
            cancelled.cancel()
            #expect(!cancelled.isActive)
            #expect(kept.isActive)

            try await posting.send(SIGUSR1, expectingPosts: 1, of: .witness)
            #expect(posting.recorder.count(.testSignal) == 0)
            kept.cancel()
        }
    }

    @Test
    func severalSignalsPostWithTheSignalThatArrived() async throws {
        try await withKnownDisposition(of: [SIGUSR1, SIGUSR2]) {
            let posting = Posting()
            let subscription = try posting.bridge.post(.testSignal, onSignals: [SIGUSR1, SIGUSR2, SIGUSR1])
            #expect(ObservedDisposition(of: SIGUSR1).hasHandlerFunction)
            #expect(ObservedDisposition(of: SIGUSR2).hasHandlerFunction)

            try await posting.send(SIGUSR1)
            try await posting.send(SIGUSR2, expectingPosts: 2)
            #expect(posting.recorder.posts(named: .testSignal).map(\.signal) == [SIGUSR1, SIGUSR2])

            subscription.cancel()
            #expect(ObservedDisposition(of: SIGUSR1).isIgnored)
            #expect(ObservedDisposition(of: SIGUSR2).isIgnored)
        }
    }

    @Test
    func burstOfSignalsYieldsAtLeastOnePost() async throws {
        try await withKnownDisposition(of: [SIGUSR2]) {
            let posting = Posting()
            let subscription = try posting.bridge.post(.testSignal, onSignal: SIGUSR2)

            for _ in 0..<100 {
                kill(getpid(), SIGUSR2)
            }
            try await posting.recorder.waitForPosts(.testSignal)
            #expect(posting.recorder.count(.testSignal) <= 100)

            // Still working after the burst.
            let afterBurst = posting.recorder.count(.testSignal)
            try await Task.sleep(for: .milliseconds(20))
            try await posting.send(SIGUSR2, expectingPosts: afterBurst + 1)
            subscription.cancel()
            #expect(ObservedDisposition(of: SIGUSR2).isIgnored)
        }
    }

    @Test
    func releasingTheBridgeCancelsItsSignalSubscriptions() async throws {
        try await withKnownDisposition(of: [SIGHUP, SIGUSR1]) {
            weak var released: NotificationBridge?
            do {
                let bridge = NotificationBridge(center: NotificationCenter())
                try bridge.post(.testSignal, onSignal: SIGHUP)
                try bridge.post(.testSignal, onSignals: [SIGHUP, SIGUSR1])
                #expect(ObservedDisposition(of: SIGHUP).hasHandlerFunction)
                released = bridge
            }
            #expect(released == nil)
            #expect(ObservedDisposition(of: SIGHUP).isIgnored)
            #expect(ObservedDisposition(of: SIGUSR1).isIgnored)
        }
    }

    @Test
    func cancelAllRestoresEverySignal() async throws {
        try await withKnownDisposition(of: [SIGUSR1, SIGUSR2]) {
            let bridge = NotificationBridge(center: NotificationCenter())
            try bridge.post(.testSignal, onSignal: SIGUSR1)
            try bridge.post(.testSignal, onSignal: SIGUSR2)
            try bridge.post(.testTimer, every: .seconds(60))
            bridge.cancelAll()
            #expect(bridge.activeSubscriptions.isEmpty)
            #expect(ObservedDisposition(of: SIGUSR1).isIgnored)
            #expect(ObservedDisposition(of: SIGUSR2).isIgnored)
        }
    }

    @Test
    func invalidSignalsAreRejectedWithoutTouchingDispositions() async {
        await withKnownDisposition(of: [SIGUSR1]) {
            let before = ObservedDisposition(of: SIGUSR1)
            let bridge = NotificationBridge(center: NotificationCenter())
            let valid = NotificationBridge.validSignals

            #expect(throws: NotificationBridgeError.signalCannotBeCaught(SIGKILL)) {
                try bridge.post(.testSignal, onSignal: SIGKILL)
            }
            #expect(throws: NotificationBridgeError.signalCannotBeCaught(SIGSTOP)) {
                try bridge.post(.testSignal, onSignal: SIGSTOP)
            }
            for outOfRange: Int32 in [0, -1, Int32(NSIG), 1000] {
                #expect(
                    throws: NotificationBridgeError.signalOutOfRange(outOfRange, validRange: valid)
                ) {
                    try bridge.post(.testSignal, onSignal: outOfRange)
                }
            }
            #expect(throws: NotificationBridgeError.noSignalsGiven) {
                try bridge.post(.testSignal, onSignals: [])
            }
            #expect(throws: NotificationBridgeError.signalCannotBeCaught(SIGKILL)) {
                try bridge.post(.testSignal, onSignals: [SIGUSR1, SIGKILL])
            }
            #expect(ObservedDisposition(of: SIGUSR1) == before)
            #expect(bridge.activeSubscriptions.isEmpty)
        }
    }

    #if os(Linux)
    @Test
    func signalReservedByTheCLibraryIsRejectedAndEarlierSignalsAreGivenBack() async {
        // glibc keeps the first two real-time signals (32 and 33) for its threads and refuses
        // sigaction on them; SIGUSR1, taken first, must be given back.
        await withKnownDisposition(of: [SIGUSR1]) {
            let before = ObservedDisposition(of: SIGUSR1)
            let bridge = NotificationBridge(center: NotificationCenter())
            #expect(throws: NotificationBridgeError.signalCannotBeCaught(32)) {
                try bridge.post(.testSignal, onSignals: [SIGUSR1, 32])
            }
            #expect(ObservedDisposition(of: SIGUSR1) == before)
            #expect(bridge.activeSubscriptions.isEmpty)
        }
    }
    #endif
}

extension Posting {
    /// Sends `signal` to the process and waits until `count` posts named `name` have arrived.
    func send(_ signal: Int32, expectingPosts count: Int = 1, of name: Notification.Name = .testSignal) async throws {
        kill(getpid(), signal)
        try await recorder.waitForPosts(name, count: count)
    }
}
