import Dispatch
import Foundation
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
            let center = NotificationCenter()
            let recorder = PostRecorder(center: center)
            let bridge = NotificationBridge(center: center)
            let subscription = try bridge.post(.testSignal, onSignal: SIGUSR1)
            defer { subscription.cancel() }

            kill(getpid(), SIGUSR1)

            #expect(await waitUntil { recorder.count(.testSignal) >= 1 })
            let post = try #require(recorder.posts(named: .testSignal).first)
            #expect(post.signal == SIGUSR1)
            #expect(post.object == ObjectIdentifier(bridge))
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

    @Test
    func defaultActionIsSuspendedWhileSubscribedAndRestoredAfterLastCancel() async throws {
        try await withKnownDisposition(of: [SIGUSR2], ignore: false) {
            #expect(ObservedDisposition(of: SIGUSR2).isDefault)
            let center = NotificationCenter()
            let recorder = PostRecorder(center: center)
            let bridge = NotificationBridge(center: center)
            let subscription = try bridge.post(.testSignal, onSignal: SIGUSR2)
            #expect(ObservedDisposition(of: SIGUSR2).hasHandlerFunction)

            // The default action would terminate the test process; the bridge must catch it.
            kill(getpid(), SIGUSR2)
            #expect(await waitUntil { recorder.count(.testSignal) >= 1 })

            subscription.cancel()
            #expect(ObservedDisposition(of: SIGUSR2).isDefault)
        }
    }

    @Test
    func ignoredSignalIsDeliveredWhileSubscribedAndIgnoredAgainAfterLastCancel() async throws {
        try await withKnownDisposition(of: [SIGHUP]) {
            let before = ObservedDisposition(of: SIGHUP)
            #expect(before.isIgnored)
            let center = NotificationCenter()
            let recorder = PostRecorder(center: center)
            let bridge = NotificationBridge(center: center)
            let subscription = try bridge.post(.testSignal, onSignal: SIGHUP)

            kill(getpid(), SIGHUP)
            #expect(await waitUntil { recorder.count(.testSignal) >= 1 })

            subscription.cancel()
            #expect(ObservedDisposition(of: SIGHUP) == before)
            // Ignored again: sending it now is harmless and posts nothing.
            kill(getpid(), SIGHUP)
            #expect(recorder.count(.testSignal) == 1)
        }
    }

    @Test
    func subscribingAgainAfterLastCancelStillReceivesSignals() async throws {
        try await withKnownDisposition(of: [SIGUSR1]) {
            let before = ObservedDisposition(of: SIGUSR1)
            let center = NotificationCenter()
            let recorder = PostRecorder(center: center)
            let bridge = NotificationBridge(center: center)
            var takenOver: ObservedDisposition?

            for round in 1...3 {
                let subscription = try bridge.post(.testSignal, onSignal: SIGUSR1)
                let during = ObservedDisposition(of: SIGUSR1)
                #expect(during.hasHandlerFunction, "round \(round): \(during)")
                if let takenOver {
                    #expect(during == takenOver, "round \(round)")
                }
                takenOver = during

                kill(getpid(), SIGUSR1)
                #expect(await waitUntil { recorder.count(.testSignal) >= round }, "round \(round)")

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
            let registered = DispatchSemaphore(value: 0)
            source.setRegistrationHandler { registered.signal() }
            source.setEventHandler {}
            source.resume()
            #expect(registered.wait(timeout: .now() + 5) == .success)
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
            let center = NotificationCenter()
            let recorder = PostRecorder(center: center)
            let bridge = NotificationBridge(center: center)
            let subscription = try bridge.post(.testSignal, onSignal: SIGUSR2)
            #expect(ObservedDisposition(of: SIGUSR2).hasHandlerFunction)
            kill(getpid(), SIGUSR2)
            #expect(await waitUntil { recorder.count(.testSignal) >= 1 })
            subscription.cancel()
            #expect(ObservedDisposition(of: SIGUSR2).isIgnored)
        }
    }

    @Test
    func twoBridgesOnOneSignalBothPost() async throws {
        try await withKnownDisposition(of: [SIGUSR1]) {
            let before = ObservedDisposition(of: SIGUSR1)
            let firstCenter = NotificationCenter()
            let secondCenter = NotificationCenter()
            let firstRecorder = PostRecorder(center: firstCenter)
            let secondRecorder = PostRecorder(center: secondCenter)
            let firstBridge = NotificationBridge(center: firstCenter)
            let secondBridge = NotificationBridge(center: secondCenter)
            let first = try firstBridge.post(.testSignal, onSignal: SIGUSR1)
            let second = try secondBridge.post(.testSignal, onSignal: SIGUSR1)

            kill(getpid(), SIGUSR1)
            #expect(await waitUntil {
                firstRecorder.count(.testSignal) >= 1 && secondRecorder.count(.testSignal) >= 1
            })
            #expect(firstRecorder.all.first?.object == ObjectIdentifier(firstBridge))
            #expect(secondRecorder.all.first?.object == ObjectIdentifier(secondBridge))

            first.cancel()
            #expect(ObservedDisposition(of: SIGUSR1).hasHandlerFunction)
            second.cancel()
            #expect(ObservedDisposition(of: SIGUSR1) == before)
        }
    }

    @Test
    func severalSubscriptionsOnOneSignalAllPost() async throws {
        try await withKnownDisposition(of: [SIGHUP]) {
            let center = NotificationCenter()
            let recorder = PostRecorder(center: center)
            let bridge = NotificationBridge(center: center)
            let names = (1...3).map { Notification.Name("NotificationBridgeTests.several.\($0)") }
            for name in names {
                try bridge.post(name, onSignal: SIGHUP)
            }
            #expect(bridge.activeSubscriptions.count == 3)

            kill(getpid(), SIGHUP)
            #expect(await waitUntil { names.allSatisfy { recorder.count($0) >= 1 } })

            bridge.cancelAll()
            #expect(ObservedDisposition(of: SIGHUP).isIgnored)
        }
    }

    @Test
    func cancelledSubscriptionStopsPostingWhileOthersContinue() async throws {
        try await withKnownDisposition(of: [SIGUSR1]) {
            let center = NotificationCenter()
            let recorder = PostRecorder(center: center)
            let bridge = NotificationBridge(center: center)
            let cancelled = try bridge.post(.testSignal, onSignal: SIGUSR1)
            let kept = try bridge.post(.witness, onSignal: SIGUSR1)

            cancelled.cancel()
            cancelled.cancel()
            #expect(!cancelled.isActive)
            #expect(kept.isActive)

            kill(getpid(), SIGUSR1)
            #expect(await waitUntil { recorder.count(.witness) >= 1 })
            #expect(recorder.count(.testSignal) == 0)
            kept.cancel()
        }
    }

    @Test
    func severalSignalsPostWithTheSignalThatArrived() async throws {
        try await withKnownDisposition(of: [SIGUSR1, SIGUSR2]) {
            let center = NotificationCenter()
            let recorder = PostRecorder(center: center)
            let bridge = NotificationBridge(center: center)
            let subscription = try bridge.post(.testSignal, onSignals: [SIGUSR1, SIGUSR2, SIGUSR1])
            #expect(ObservedDisposition(of: SIGUSR1).hasHandlerFunction)
            #expect(ObservedDisposition(of: SIGUSR2).hasHandlerFunction)

            kill(getpid(), SIGUSR1)
            #expect(await waitUntil { recorder.count(.testSignal) >= 1 })
            kill(getpid(), SIGUSR2)
            #expect(await waitUntil { recorder.count(.testSignal) >= 2 })
            #expect(recorder.posts(named: .testSignal).map(\.signal) == [SIGUSR1, SIGUSR2])

            subscription.cancel()
            #expect(ObservedDisposition(of: SIGUSR1).isIgnored)
            #expect(ObservedDisposition(of: SIGUSR2).isIgnored)
        }
    }

    @Test
    func burstOfSignalsYieldsAtLeastOnePost() async throws {
        try await withKnownDisposition(of: [SIGUSR2]) {
            let center = NotificationCenter()
            let recorder = PostRecorder(center: center)
            let bridge = NotificationBridge(center: center)
            let subscription = try bridge.post(.testSignal, onSignal: SIGUSR2)

            for _ in 0..<100 {
                kill(getpid(), SIGUSR2)
            }
            #expect(await waitUntil { recorder.count(.testSignal) >= 1 })
            #expect(recorder.count(.testSignal) <= 100)

            // Still working after the burst.
            let afterBurst = recorder.count(.testSignal)
            try await Task.sleep(for: .milliseconds(20))
            kill(getpid(), SIGUSR2)
            #expect(await waitUntil { recorder.count(.testSignal) > afterBurst })
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
