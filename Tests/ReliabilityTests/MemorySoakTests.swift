import Dispatch
import Foundation
import Katana
import Testing

/// Item 5: a million updater dispatches leave nothing behind per dispatch.
@Suite struct MemorySoakTests {
    static let warmUp = 100_000
    static let soak = 1_000_000
    static let chunk = 10_000

    /// The allowed growth of the resident set over the soak, from the baseline taken after the
    /// warm-up. Leaking even one 16-byte allocation per dispatch would grow it by about 15 MiB
    /// (malloc rounds each to at least 32 bytes: ~30 MiB); a leaked promise or item (48+ bytes)
    /// by 45+ MiB. The bound is 20 MiB because the rest of the process keeps allocating during the
    /// soak (412 tests in a full run; up to 12.6 MiB of growth measured from them, 1.5–3.5 MiB with
    /// the soak alone). Under the thread sanitizer every heap byte also has shadow memory and its
    /// allocator caches more, so the bound there is separate and larger.
    static var boundKiB: Int { isRunningUnderThreadSanitizer ? 24 * 1024 : 20 * 1024 }

    @Test func soak_1000000UpdaterDispatches_residentSetStaysWithinBound() async throws {
        // Alone among this target's tests (see ProcessMemoryGate): the resident set is the process's.
        let ran: Void? = try await ProcessMemoryGate.exclusive { try await soak() }
        #expect(ran != nil, "the memory gate was not obtained in time")
    }

    private func soak() async throws {
        let store = LoadStore(
            interceptors: [],
            stateInitializer: { LoadState() },
            configuration: .init(listenersAsyncProvider: DispatchQueue(label: "ReliabilityTests.soak.listeners"))
        )
        let heard = Counter()
        store.addListener { _, _ in heard.increment() }

        // The dispatching loop blocks in `wait`, so it runs on a thread of its own: a test runner's
        // task holding one of Swift concurrency's few threads for the whole soak starves the other
        // tests' tasks.
        @Sendable func dispatchOnItsOwnThread(_ count: Int, from start: Int) throws {
            var dispatched = 0
            while dispatched < count {
                var last: Promise<Void>?
                for k in 0..<Self.chunk {
                    last = store.dispatch(Add(id: start + dispatched + k, amount: 1))
                }
                // Updaters settle in order: the chunk's last one settling means the chunk is done.
                try last?.wait(timeout: reliabilityTimeout)
                dispatched += Self.chunk
            }
        }

        func run(_ count: Int, from start: Int) async throws {
            try await onThreadOfItsOwn { try dispatchOnItsOwnThread(count, from: start) }
        }

        try await run(Self.warmUp, from: 0)
        #expect(await waitUntil { heard.value == Self.warmUp })
        let baseline = try #require(residentSetKiB())

        var samples: [Int] = []
        for step in 0..<10 {
            try await run(Self.soak / 10, from: Self.warmUp + step * Self.soak / 10)
            samples.append(try #require(residentSetKiB()))
        }
        let total = Self.warmUp + Self.soak
        #expect(await waitUntil { heard.value == total })
        let final = try #require(residentSetKiB())
        #expect(store.state == LoadState(seq: total, total: total))

        let growth = samples.map { $0 - baseline } + [final - baseline]
        print("MemorySoak: tsan=\(isRunningUnderThreadSanitizer) baseline=\(baseline) KiB, growth per 100k (KiB): \(growth), bound \(Self.boundKiB) KiB")
        #expect(growth.allSatisfy { $0 <= Self.boundKiB }, "RSS growth \(growth) KiB over baseline \(baseline) KiB exceeds \(Self.boundKiB) KiB")
    }
}

/// Runs a test body with the memory gate taken shared, so the memory soak never overlaps it.
func underSharedGate(_ body: () async throws -> Void) async throws {
    let ran: Void? = try await ProcessMemoryGate.shared(body)
    #expect(ran != nil, "the memory gate was not obtained in time")
}
